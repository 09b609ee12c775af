import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import Tasks from "../../src/renderer/components/Tasks.svelte";
import { elapsedText, progressFraction, startedBy, TasksState } from "../../src/renderer/lib/tasks.svelte";
import { callOf, ok } from "./fake-api";
import type { TaskRecord, TasksList } from "../../src/shared/tasks";
import type { Envelope } from "../../src/shared/contract";
import { kindLabel, outcomeWord } from "../../src/shared/words";

const NOW = Date.UTC(2026, 11, 2, 12);

function task(over: Partial<TaskRecord> = {}): TaskRecord {
  return { id: "tsk-1", server: "builder", tool: "build_site", agent: "cursor", taskId: "s-1", generation: "2026-07-28", state: "working", createdAt: NOW - 125_000, ...over };
}

async function shown(list: TaskRecord[], cancel?: (arg: { id: string }) => Promise<Envelope<TasksList>>) {
  const cancelFn = vi.fn(cancel ?? (async () => ok({ tasks: [] })));
  const tasks = new TasksState(callOf({ "tasks:list": async () => ok({ tasks: list }), "tasks:cancel": cancelFn }));
  await tasks.load();
  const go = vi.fn();
  render(Tasks, { tasks, now: NOW, go });
  return { tasks, go, cancelFn };
}

describe("the Tasks view", () => {
  it("says what tasks are when there are none", async () => {
    await shown([]);
    expect(screen.getByText(/No tasks right now\. When a server runs a tool call in the background/)).toBeTruthy();
  });

  it("shows a running task's server, who started it, its status, a progress bar and how long it has run", async () => {
    await shown([task({ statusMessage: "Rendering pages", progress: { progress: 3, total: 12, message: "page 3 of 12" } }), task({ id: "tsk-2", tool: "index_docs", agent: undefined, createdAt: NOW - 5_000, progress: { progress: 7 } })]);
    const running = screen.getByRole("list", { name: "Running tasks" });
    const build = within(running).getByRole("article", { name: "build_site" });
    expect(within(build).getByText("builder")).toBeTruthy();
    expect(within(build).getByText("Started by cursor")).toBeTruthy();
    expect(within(build).getByText("Rendering pages")).toBeTruthy();
    expect(within(build).getByText("page 3 of 12")).toBeTruthy();
    expect(within(build).getByText("2 min 05 s")).toBeTruthy();
    const bar = within(build).getByRole("progressbar", { name: "Progress of build_site" }) as HTMLProgressElement;
    expect(bar.value).toBeCloseTo(0.25);
    expect(within(build).getByText("25%")).toBeTruthy();
    const index = within(running).getByRole("article", { name: "index_docs" });
    expect(within(index).getByText("Started by you")).toBeTruthy();
    expect(within(index).queryByRole("progressbar")).toBeNull();
    expect(within(index).getByText("7 done so far")).toBeTruthy();
  });

  it("Cancel asks first; Keep it running leaves it, Yes, cancel it asks main and shows the list it answers", async () => {
    const { cancelFn } = await shown([task()], async () => ok({ tasks: [task({ state: "cancelled", endedAt: NOW, outcome: "cancelled by you" })] }));
    const article = screen.getByRole("article", { name: "build_site" });
    await fireEvent.click(within(article).getByRole("button", { name: "Cancel task" }));
    const confirm = within(article).getByRole("group", { name: "Cancel build_site?" });
    await fireEvent.click(within(confirm).getByRole("button", { name: "Keep it running" }));
    expect(cancelFn).not.toHaveBeenCalled();
    await fireEvent.click(within(article).getByRole("button", { name: "Cancel task" }));
    await fireEvent.click(within(screen.getByRole("group", { name: "Cancel build_site?" })).getByRole("button", { name: "Yes, cancel it" }));
    expect(cancelFn).toHaveBeenCalledWith({ id: "tsk-1" });
    const ended = await screen.findByRole("list", { name: "Ended tasks" });
    expect(within(ended).getByText("Cancelled")).toBeTruthy();
    expect(within(ended).getByText("cancelled by you")).toBeTruthy();
    expect(screen.queryByRole("list", { name: "Running tasks" })).toBeNull();
  });

  it("main's refusal of a cancel is said beside the task, which stays", async () => {
    await shown([task()], async () => ({ ok: false, error: { code: "cancel-unsupported", message: "This companion cannot cancel tasks yet." } }));
    await fireEvent.click(screen.getByRole("button", { name: "Cancel task" }));
    await fireEvent.click(screen.getByRole("button", { name: "Yes, cancel it" }));
    expect((await screen.findByRole("alert")).textContent).toContain("cannot cancel tasks yet");
    expect(screen.getByRole("article", { name: "build_site" })).toBeTruthy();
  });

  it("a task waiting on a question points to the Inbox; ended tasks point to History", async () => {
    const { go } = await shown([task({ state: "input_required", statusMessage: "Which branch?" }), task({ id: "tsk-2", state: "failed", endedAt: NOW - 1000, outcome: "Out of memory" })]);
    expect(screen.getByText("Waiting for you")).toBeTruthy();
    await fireEvent.click(screen.getByRole("button", { name: "Answer in the Inbox" }));
    expect(go).toHaveBeenCalledWith("inbox");
    const ended = screen.getByRole("list", { name: "Ended tasks" });
    expect(within(ended).getByText("Failed")).toBeTruthy();
    expect(within(ended).getByText("Out of memory")).toBeTruthy();
    expect(within(ended).getByText("took 2 min 04 s")).toBeTruthy();
    await fireEvent.click(screen.getByRole("button", { name: "Open History" }));
    expect(go).toHaveBeenCalledWith("history");
  });

  it("a tasks:changed that arrives while a list is being fetched wins over it", async () => {
    let answer: (value: Envelope<TasksList>) => void = () => {};
    const tasks = new TasksState(callOf({ "tasks:list": () => new Promise((resolve) => (answer = resolve)) }));
    const loading = tasks.load();
    tasks.changed({ tasks: [task({ id: "tsk-new" })] });
    answer(ok({ tasks: [] }));
    await loading;
    expect(tasks.list.map((t) => t.id)).toEqual(["tsk-new"]);
  });

  it("says why the list could not be fetched", async () => {
    const tasks = new TasksState(callOf({ "tasks:list": async () => ({ ok: false, error: { code: "failed", message: "main is busy" } }) }));
    await tasks.load();
    render(Tasks, { tasks, now: NOW, go: () => {} });
    await waitFor(() => expect(screen.getByRole("alert").textContent).toContain("main is busy"));
  });
});

describe("the Tasks view's words", () => {
  it("elapsed time, who started it, the fraction done", () => {
    expect([elapsedText(9_400), elapsedText(65_000), elapsedText(3 * 3_600_000 + 4 * 60_000), elapsedText(5 * 86_400_000)]).toEqual(["9 s", "1 min 05 s", "3 h 04 min", "5 days"]);
    expect(startedBy(task({ agent: undefined }))).toBe("Started by you");
    expect(progressFraction(task({ progress: { progress: 30, total: 20 } }))).toBe(1);
    expect(progressFraction(task({ progress: { progress: 3, total: 0 } }))).toBeUndefined();
  });

  it("History words an ended task's row as a task, questions as before", () => {
    expect(kindLabel("task")).toBe("Task");
    expect((["accepted", "declined", "cancelled", "withdrawn"] as const).map((o) => outcomeWord(o, "task"))).toEqual(["Completed", "Failed", "Cancelled", "Gone"]);
    expect(outcomeWord("accepted", "input")).toBe("Accepted");
  });
});
