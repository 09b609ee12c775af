// 2025-11-25 tasks against the real server-everything over stdio, through loadMcp with a person
// answering in a real Inbox: a tool that runs only as a task (simulate-research-query), with and
// without the question it queues on the task; the client's own tasks (the server's
// elicitation/create and sampling/createMessage with a `task` param); cancelling a task, by the
// person and by the caller going away; and a companion restart mid-task.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcp, type LiveSource } from "../../src/main/mcp/source";
import { memoryLedger } from "../../src/main/mcp/tasks/ledger";
import type { SourceEvent } from "../../src/main/mcp/types";
import type { TaskRecord } from "../../src/shared/tasks";
import { everythingStdioCommand, fixtureCommand, startEverythingHttp, startListeningFixture, type RunningHttpServer } from "../fixtures";
import { scriptedPerson, type Policy, type ScriptedPerson } from "../helpers/person";
import { until } from "../helpers/poll";
import { outputOf } from "../helpers/tool-output";

const config = { mcpServers: { everything: everythingStdioCommand() } };

let source: LiveSource;
let person: ScriptedPerson;
let policy: Policy = () => undefined;
const ledger = memoryLedger();
const events: TaskRecord[] = [];

beforeAll(async () => {
  person = scriptedPerson((entry) => policy(entry));
  const started = startMcp(config, { waitFor: person.waitFor, tasks: ledger });
  source = started.source;
  source.on((event: SourceEvent) => {
    if (event.type === "task") events.push(event.record);
  });
  await started.ready;
}, 20_000);

afterAll(async () => {
  await source?.close();
});

function tool(name: string) {
  const found = source.tools.find((t) => t.tool === name);
  if (!found) throw new Error(`no tool ${name}; have ${source.tools.map((t) => t.tool).join(", ")}`);
  return found;
}

/** The newest record of a task of `toolName`, once there is one. */
function recordOf(toolName: string, since: number): Promise<TaskRecord> {
  return until(() => ledger.all().find((r) => r.tool === toolName && r.createdAt >= since), 10_000, `a task of ${toolName}`);
}

describe("a tool that runs only as a task (simulate-research-query)", () => {
  it("is offered, runs as a task and comes back with the server's report; the ledger follows it to completed", async () => {
    expect(tool("simulate-research-query").definition).toMatchObject({ execution: { taskSupport: "required" } });
    const since = Date.now();
    const result = await outputOf(tool("simulate-research-query").execute({ topic: "tides" }, { agent: "research-bot" }));
    expect(result.isError).toBe(false);
    expect(result.output).toContain("# Research Report: tides");
    const record = ledger.all().find((r) => r.createdAt >= since)!;
    expect(record).toMatchObject({ server: "everything", tool: "simulate-research-query", agent: "research-bot", generation: "2025-11-25", state: "completed" });
    expect(record.id).toMatch(/^tsk-/);
    expect(record.outcome).toContain("Research Report: tides");
    expect(record.endedAt).toBeGreaterThanOrEqual(record.createdAt);
    // Each change was told: the stages as status messages, then the end.
    const told = events.filter((e) => e.id === record.id);
    expect(told.map((e) => e.statusMessage)).toEqual(expect.arrayContaining(["Analyzing content...", "Generating report..."]));
    expect(told.at(-1)).toMatchObject({ state: "completed" });
  }, 20_000);

  it("asks the person the question it queued on the task, naming the agent and tool, and the answer reaches the report", async () => {
    policy = (entry) => (entry.request.prompt.includes('"python"') ? { ok: true, data: { interpretation: "comedy" } } : undefined);
    const asked = person.seen.length;
    // Another agent's call is in flight on the same stdio server: only the relatedTask meta says
    // whose question it is (without it the question would belong to both calls, naming no tool).
    const other = tool("trigger-long-running-operation").execute({ duration: 6, steps: 2 }, { agent: "other-bot" });
    const result = await outputOf(tool("simulate-research-query").execute({ topic: "python", ambiguous: true }, { agent: "research-bot" }));
    const question = person.seen.slice(asked).find((e) => e.request.prompt.includes('"python"'));
    expect(question?.source).toEqual({ server: "everything", agent: "research-bot", tool: "simulate-research-query" });
    await other;
    expect(result.output).toContain("# Research Report: python (comedy)");
    policy = () => undefined;
  }, 20_000);
});

describe("the client's own tasks (the server asks with a `task` param)", () => {
  it("trigger-elicitation-request-async: the question reaches the Inbox, the server polls the client's task and gets the answer", async () => {
    policy = (entry) => (entry.request.prompt.includes("async task demo") ? { ok: true, data: { name: "Ada Lovelace", favoriteColor: "Purple" } } : undefined);
    const result = await outputOf(tool("trigger-elicitation-request-async").execute({}));
    expect(result.output).toContain("[COMPLETED] User provided the requested information!");
    expect(result.output).toContain("- Name: Ada Lovelace");
    expect(result.output).toContain("- Favorite Color: Purple");
    policy = () => undefined;
  }, 20_000);

  it("trigger-sampling-request-async: the calling agent answers the sampling task", async () => {
    const seen: Record<string, unknown>[] = [];
    const sampling = async (params: Record<string, unknown>) => {
      seen.push(params);
      return { role: "assistant", content: { type: "text", text: "the tide comes in twice a day" }, model: "agent-model" };
    };
    const result = await outputOf(tool("trigger-sampling-request-async").execute({ prompt: "tides?" }, { agent: "sampling-bot", sampling }));
    expect(result.output).toContain("[COMPLETED] Async sampling completed!");
    expect(result.output).toContain("the tide comes in twice a day");
    // The agent got the question without the task augmentation.
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toHaveProperty("task");
  }, 20_000);

  it("trigger-sampling-request-async without an agent: the client task fails with the usual refusal", async () => {
    const result = await outputOf(tool("trigger-sampling-request-async").execute({ prompt: "tides?" }));
    expect(result.output).toContain("[FAILED]");
    expect(result.output).toContain("sampling/createMessage");
  }, 20_000);
});

/** What the server still keeps of `taskId` (tasks/list). */
async function serverStatusOf(taskId: string): Promise<string | undefined> {
  const listed = await source.serverTasks("everything", new AbortController().signal);
  return listed?.find((t) => t.taskId === taskId)?.status;
}

describe("cancelling a task", () => {
  it("by the person (cancelTask): the server is told, the call fails saying so, the ledger says cancelled", async () => {
    const since = Date.now();
    const call = tool("simulate-research-query").execute({ topic: "glaciers" });
    call.catch(() => undefined);
    const record = await recordOf("simulate-research-query", since);
    await source.cancelTask(record.id);
    await expect(call).rejects.toThrow("everything: simulate-research-query was cancelled (cancelled by you)");
    expect(ledger.get(record.id)).toMatchObject({ state: "cancelled", outcome: "cancelled by you" });
    expect(await serverStatusOf(record.taskId)).toBe("cancelled");
    expect(events.filter((e) => e.id === record.id).at(-1)).toMatchObject({ state: "cancelled" });
    // Ended: a second cancel is refused, and so is an id nobody knows.
    await expect(source.cancelTask(record.id)).rejects.toThrow("already ended (cancelled)");
    await expect(source.cancelTask("tsk-nobody")).rejects.toThrow("no task tsk-nobody");
  }, 20_000);

  it("by the caller going away (its signal aborts): the server is told, the ledger says cancelled", async () => {
    const since = Date.now();
    const caller = new AbortController();
    const call = tool("simulate-research-query").execute({ topic: "dunes" }, { signal: caller.signal, agent: "leaving-bot" });
    call.catch(() => undefined);
    const record = await recordOf("simulate-research-query", since);
    caller.abort(new Error("the agent disconnected"));
    await expect(call).rejects.toThrow("the agent disconnected");
    expect(ledger.get(record.id)).toMatchObject({ state: "cancelled", outcome: "cancelled: the caller stopped waiting (the agent disconnected)" });
    await until(async () => (await serverStatusOf(record.taskId)) === "cancelled", 5_000, "the server to have cancelled the task");
  }, 20_000);
});

describe("restarts", () => {
  it("a companion restart mid-task: the task stays live; the new run asks its server, which (a new process) no longer knows it: gone", async () => {
    const shared = memoryLedger();
    const first = startMcp(config, { waitFor: person.waitFor, tasks: shared });
    await first.ready;
    const call = first.source.tools.find((t) => t.tool === "simulate-research-query")!.execute({ topic: "reefs" });
    call.catch(() => undefined);
    const record = await until(() => shared.all()[0], 10_000, "the task to be recorded");
    await first.source.close();
    await expect(call).rejects.toThrow("simulate-research-query was left running as a task");
    expect(shared.get(record.id)?.state).toBe("working");

    const told: TaskRecord[] = [];
    const second = startMcp(config, { waitFor: person.waitFor, tasks: shared });
    second.source.on((event) => event.type === "task" && told.push(event.record));
    try {
      await second.ready;
      const gone = await until(() => (shared.get(record.id)?.state === "gone" ? shared.get(record.id) : undefined), 10_000, "the task to be marked gone");
      expect(gone).toMatchObject({ outcome: "the server no longer knows this task" });
      expect(gone?.endedAt).toBeGreaterThan(0);
      expect(told.at(-1)).toMatchObject({ id: record.id, state: "gone" });
    } finally {
      await second.source.close();
    }
  }, 30_000);

  it("the server restarting mid-task (the connection replaced): the caller is told, and the task, unknown to the new process, is gone", async () => {
    const shared = memoryLedger();
    const run = startMcp(config, { waitFor: person.waitFor, tasks: shared });
    try {
      await run.ready;
      const call = run.source.tools.find((t) => t.tool === "simulate-research-query")!.execute({ topic: "storms" });
      call.catch(() => undefined);
      const record = await until(() => shared.all()[0], 10_000, "the task to be recorded");
      const fresh = await run.source.replace(run.source.connection("everything")!.config);
      await expect(call).rejects.toThrow("simulate-research-query was left running as a task");
      await fresh.connect();
      await until(() => shared.get(record.id)?.state === "gone", 10_000, "the task to be marked gone");
    } finally {
      await run.source.close();
    }
  }, 30_000);

  it("a live task whose server is no longer in the config is marked gone, not forgotten: at start, and when the server is removed", async () => {
    const shared = memoryLedger();
    const live = { tool: "t", taskId: "x", generation: "2025-11-25" as const, state: "working" as const, createdAt: 1 };
    shared.started({ ...live, id: "tsk-left", server: "retired" });
    shared.started({ ...live, id: "tsk-spare", server: "spare" });
    const started = startMcp({ mcpServers: { spare: { ...everythingStdioCommand(), disabled: true } } }, { waitFor: person.waitFor, tasks: shared });
    try {
      expect(shared.get("tsk-left")).toMatchObject({ state: "gone", outcome: 'its server "retired" was removed from the config' });
      // A disabled server is still configured: its task waits for it.
      expect(shared.get("tsk-spare")?.state).toBe("working");
      await started.source.remove("spare");
      expect(shared.get("tsk-spare")).toMatchObject({ state: "gone", outcome: 'its server "spare" was removed from the config' });
    } finally {
      await started.source.close();
    }
  });

  it("a call's idle timer does not run out while its task is polled, even past the server's call timeout", async () => {
    const quick = startMcp({ mcpServers: { everything: { ...everythingStdioCommand(), callTimeout: 1_500 } } }, { waitFor: person.waitFor, tasks: memoryLedger() });
    try {
      await quick.ready;
      const started = Date.now();
      const result = await outputOf(quick.source.tools.find((t) => t.tool === "simulate-research-query")!.execute({ topic: "sleep" }));
      expect(result.output).toContain("# Research Report: sleep");
      // The four stages take about 4 s, well past 1.5 s of the call's idle bound.
      expect(Date.now() - started).toBeGreaterThan(3_000);
    } finally {
      await quick.source.close();
    }
  }, 20_000);
});

describe("server-everything over streamable HTTP", () => {
  it("runs the ambiguous research as a task, the queued question arriving on tasks/result's stream", async () => {
    const server = await startEverythingHttp();
    const shared = memoryLedger();
    const http = startMcp({ mcpServers: { web: { url: server.url } } }, { waitFor: person.waitFor, tasks: shared });
    try {
      await http.ready;
      policy = (entry) => (entry.request.prompt.includes('"python"') ? { ok: true, data: { interpretation: "snake" } } : undefined);
      const asked = person.seen.length;
      const result = await outputOf(http.source.tools.find((t) => t.tool === "simulate-research-query")!.execute({ topic: "python", ambiguous: true }, { agent: "web-bot" }));
      expect(result.output).toContain("# Research Report: python (snake)");
      expect(person.seen.slice(asked).find((e) => e.request.prompt.includes('"python"'))?.source).toEqual({ server: "web", agent: "web-bot", tool: "simulate-research-query" });
      expect(shared.all()[0]).toMatchObject({ server: "web", state: "completed" });
    } finally {
      policy = () => undefined;
      await http.source.close();
      await server.close();
    }
  }, 30_000);
});

describe("progress on a task (durable-tasks fixture over stdio)", () => {
  it("reaches the caller and the task's record, on the call's token", async () => {
    const shared = memoryLedger();
    const stdio = startMcp({ mcpServers: { durable: fixtureCommand("durable-tasks", ["--stdio"]) } }, { tasks: shared });
    try {
      await stdio.ready;
      const heard: unknown[] = [];
      const result = await outputOf(stdio.source.tools.find((t) => t.tool === "report")!.execute({ topic: "rain", ms: 800 }, { onprogress: (p) => heard.push(p) }));
      expect(result.output).toBe("report on rain");
      expect(heard).toEqual([{ progress: 1, total: 2, message: "halfway through rain" }]);
      expect(shared.all()[0]).toMatchObject({ state: "completed", progress: { progress: 1, total: 2, message: "halfway through rain" } });
    } finally {
      await stdio.source.close();
    }
  }, 20_000);
});

describe("a server whose tasks outlive the session (durable-tasks fixture over streamable HTTP)", () => {
  let server: RunningHttpServer;
  beforeAll(async () => {
    server = await startListeningFixture("durable-tasks");
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a companion restart mid-task resumes it: the new run follows it to the end, and its result goes to the ledger", async () => {
    const shared = memoryLedger();
    const durable = { mcpServers: { durable: { url: server.url } } };
    const first = startMcp(durable, { tasks: shared });
    await first.ready;
    const call = first.source.tools.find((t) => t.tool === "report")!.execute({ topic: "the moon", ms: 2_500 }, { agent: "night-bot" });
    call.catch(() => undefined);
    const record = await until(() => shared.all()[0], 10_000, "the task to be recorded");
    expect(record).toMatchObject({ state: "working", statusMessage: "writing about the moon", agent: "night-bot" });
    await first.source.close();
    await expect(call).rejects.toThrow("report was left running as a task");

    const second = startMcp(durable, { tasks: shared });
    try {
      await second.ready;
      const ended = await until(() => (shared.get(record.id)?.state === "completed" ? shared.get(record.id) : undefined), 10_000, () => `the resumed task to complete; it is ${JSON.stringify(shared.get(record.id))}`);
      expect(ended).toMatchObject({ outcome: "report on the moon", agent: "night-bot" });
    } finally {
      await second.source.close();
    }
  }, 30_000);
});
