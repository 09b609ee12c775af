import { describe, expect, it } from "vitest";
import { createTasksHandlers } from "../../../../src/main/history/tasks-handlers";
import { memoryLedger } from "../../../../src/main/mcp/tasks/ledger";
import { tasksList } from "../../../../src/main/history/tasks-records";
import type { TaskRecord } from "../../../../src/shared/tasks";

const running: TaskRecord = { id: "tsk-1", server: "builder", tool: "build_site", taskId: "s-1", generation: "2026-07-28", state: "working", createdAt: 1 };

function setup(cancel?: (id: string) => Promise<void>) {
  const ledger = memoryLedger();
  ledger.started(running);
  ledger.started({ ...running, id: "tsk-2", state: "completed", endedAt: 2 });
  const asked: string[] = [];
  const handlers = createTasksHandlers({ list: () => tasksList(ledger.all()), get: (id) => ledger.get(id), cancelling: (id) => asked.push(id), cancel: () => cancel });
  return { ledger, handlers, asked };
}

describe("the Tasks channels", () => {
  it("tasks:list lists live first and takes no argument", async () => {
    const { handlers } = setup();
    expect((await handlers["tasks:list"](undefined)).tasks.map((t) => t.id)).toEqual(["tsk-1", "tsk-2"]);
    await expect(handlers["tasks:list"]({ all: true })).rejects.toThrow("takes no argument");
  });

  it("tasks:cancel checks the id, refuses an unknown or ended task, and says so when the source cannot cancel", async () => {
    const { handlers } = setup();
    await expect(handlers["tasks:cancel"]({})).rejects.toThrow('needs { id: "<task id>" }');
    await expect(handlers["tasks:cancel"]({ id: "tsk 1; rm" })).rejects.toThrow("not a task id");
    await expect(handlers["tasks:cancel"]({ id: "tsk-9" })).rejects.toMatchObject({ code: "unknown-task" });
    await expect(handlers["tasks:cancel"]({ id: "tsk-2" })).rejects.toMatchObject({ code: "task-ended" });
    await expect(handlers["tasks:cancel"]({ id: "tsk-1" })).rejects.toMatchObject({ code: "cancel-unsupported", message: expect.stringContaining("cannot cancel tasks yet") });
  });

  it("tasks:cancel asks the source, notes the person asked, and answers with the list after", async () => {
    let ledger: ReturnType<typeof memoryLedger> | undefined;
    const { handlers, asked, ledger: l } = setup(async (id) => ledger!.updated(id, { state: "cancelled", endedAt: 3, outcome: "cancelled by you" }));
    ledger = l;
    const after = await handlers["tasks:cancel"]({ id: "tsk-1" });
    expect(asked).toEqual(["tsk-1"]);
    expect(after.tasks.find((t) => t.id === "tsk-1")).toMatchObject({ state: "cancelled" });
  });

  it("a source's refusal comes back in words", async () => {
    const { handlers } = setup(async () => {
      throw new Error("server not connected");
    });
    await expect(handlers["tasks:cancel"]({ id: "tsk-1" })).rejects.toMatchObject({ code: "cancel-failed", message: "Could not cancel build_site on builder: server not connected" });
  });
});
