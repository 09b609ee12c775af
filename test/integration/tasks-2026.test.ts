// 2026-07-28 tasks (the `io.modelcontextprotocol/tasks` extension) end to end through loadMcp,
// against the tasks fixture (tasks-server-2026.ts) over streamable HTTP and stdio, with a person
// answering in a real Inbox and a ledger: a task that asks a question through inputRequests (the
// Inbox, then tasks/update), a call that asks before any task exists, a task created finished,
// cancelling by the person and by the caller going away, a failed task, the server and the
// companion restarting mid-task, and -32021 for the missing extension.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcp, type LiveSource } from "../../src/main/mcp/source";
import { memoryLedger } from "../../src/main/mcp/tasks/ledger";
import type { TaskRecord } from "../../src/shared/tasks";
import { startTasksServer2026, tasksServer2026Command, type RunningTasksServer } from "../fixtures/tasks-server-2026-run";
import { scriptedPerson, type Policy, type ScriptedPerson } from "../helpers/person";
import { until } from "../helpers/poll";
import { outputOf } from "../helpers/tool-output";

type Ledger = ReturnType<typeof memoryLedger>;

let person: ScriptedPerson;
let policy: Policy = () => undefined;
/** Answers "What is your name?" with Luca; leaves every other question pending. */
const luca: Policy = (entry) => (entry.request.prompt.includes("What is your name?") ? { ok: true, data: { name: "Luca" } } : undefined);

beforeAll(() => {
  person = scriptedPerson((entry) => policy(entry));
});

interface Run {
  source: LiveSource;
  ledger: Ledger;
  told: TaskRecord[];
}

async function run(config: Record<string, unknown>, ledger: Ledger = memoryLedger()): Promise<Run> {
  const told: TaskRecord[] = [];
  const started = startMcp({ mcpServers: config } as never, { waitFor: person.waitFor, tasks: ledger, log: process.env.TASKS_LOG ? (l) => console.log(l) : undefined });
  started.source.on((event) => event.type === "task" && told.push(event.record));
  await started.ready;
  return { source: started.source, ledger, told };
}

function tool(source: LiveSource, name: string) {
  const found = source.tools.find((t) => t.tool === name);
  if (!found) throw new Error(`no tool ${name}; have ${source.tools.map((t) => t.tool).join(", ")}; status ${JSON.stringify(source.connection("tasks")?.status)}`);
  return found;
}

/** The record of the first task of `toolName` started at or after `since`. */
function recordOf(ledger: Ledger, toolName: string, since: number): Promise<TaskRecord> {
  return until(() => ledger.all().find((r) => r.tool === toolName && r.createdAt >= since), 10_000, `a task of ${toolName}`);
}

/** What the person is asked next that matches `text`. */
function asked(text: string, from: number) {
  return until(() => person.seen.slice(from).find((e) => e.request.prompt.includes(text)), 10_000, `the question "${text}"`);
}

describe.each(["streamable HTTP", "stdio"] as const)("a 2026-07-28 server with the tasks extension over %s", (kind) => {
  let server: RunningTasksServer | undefined;
  let live: Run;

  beforeAll(async () => {
    if (kind === "streamable HTTP") server = await startTasksServer2026();
    // A local server is spoken to as 2025-11-25 unless its config asks for the probe.
    live = await run({ tasks: kind === "stdio" ? { ...tasksServer2026Command(), protocol: "auto" } : { url: server!.url } });
  }, 30_000);
  afterAll(async () => {
    await live?.source.close();
    await server?.close();
  });

  it("a task with a question inside: inputRequests reach the Inbox, named for its agent and tool, and the answer completes it", async () => {
    expect(live.source.connection("tasks")?.era()).toBe("modern");
    policy = luca;
    const from = person.seen.length;
    const since = Date.now();
    const result = await outputOf(tool(live.source, "greet").execute({}, { agent: "greeter-bot" }));
    expect(result).toEqual({ output: "Hello, Luca!", isError: false });
    const question = await asked("What is your name?", from);
    expect(question.source).toEqual({ server: "tasks", agent: "greeter-bot", tool: "greet" });
    const record = await recordOf(live.ledger, "greet", since);
    expect(record).toMatchObject({ server: "tasks", agent: "greeter-bot", generation: "2026-07-28", state: "completed", outcome: "Hello, Luca!" });
    const states = live.told.filter((r) => r.id === record.id).map((r) => r.state);
    expect(states).toEqual(expect.arrayContaining(["working", "input_required", "completed"]));
    policy = () => undefined;
  }, 20_000);

  it("a call that asks before any task exists (input_required) is answered through the Inbox, then runs as a task", async () => {
    policy = (entry) => (entry.request.prompt.includes("Start the job?") ? { ok: true, data: { ok: true } } : undefined);
    const from = person.seen.length;
    const result = await outputOf(tool(live.source, "confirm_first").execute({}, { agent: "careful-bot" }));
    expect(result.output).toBe("confirmed");
    expect((await asked("Start the job?", from)).source).toEqual({ server: "tasks", agent: "careful-bot", tool: "confirm_first" });
    policy = () => undefined;
  }, 20_000);

  it("a plain answer stays plain (no task recorded); a task created already finished is asked for its result", async () => {
    const before = live.ledger.all().length;
    expect(await outputOf(tool(live.source, "plain").execute({}))).toEqual({ output: "plain answer", isError: false });
    expect(live.ledger.all()).toHaveLength(before);
    expect((await outputOf(tool(live.source, "needs_tasks").execute({}))).output).toBe("ran as a task");
    expect(live.ledger.all().at(-1)).toMatchObject({ tool: "needs_tasks", state: "completed", outcome: "ran as a task" });
  }, 20_000);

  it("a failed task fails the call with the server's error, and the ledger says failed", async () => {
    await expect(tool(live.source, "fail_job").execute({})).rejects.toThrow("tasks: fail_job failed: backend refused the job");
    expect(live.ledger.all().at(-1)).toMatchObject({ tool: "fail_job", state: "failed", outcome: "failed: backend refused the job" });
  }, 20_000);

  it("a tool with an output schema keeps the SDK's path; refused there with -32021 for the extension alone, it goes again as a task", async () => {
    const result = await tool(live.source, "typed_needs_tasks").execute({});
    expect(result.structuredContent).toEqual({ ran: "as a task" });
    expect(live.ledger.all().at(-1)).toMatchObject({ tool: "typed_needs_tasks", state: "completed" });
  }, 20_000);

  it("the person cancels (cancelTask): tasks/cancel reaches the server, the call fails saying so, the ledger says cancelled", async () => {
    const since = Date.now();
    const call = tool(live.source, "long_job").execute({});
    call.catch(() => undefined);
    const record = await recordOf(live.ledger, "long_job", since);
    await live.source.cancelTask(record.id);
    await expect(call).rejects.toThrow("tasks: long_job was cancelled (cancelled by you)");
    expect(live.ledger.get(record.id)).toMatchObject({ state: "cancelled", outcome: "cancelled by you" });
    if (server) expect(await server.seen()).toContainEqual({ method: "tasks/cancel", mcpName: record.taskId, taskId: record.taskId });
  }, 20_000);

  it("the caller goes away (its signal aborts): tasks/cancel reaches the server, the ledger says cancelled", async () => {
    const since = Date.now();
    const caller = new AbortController();
    const call = tool(live.source, "long_job").execute({}, { signal: caller.signal });
    call.catch(() => undefined);
    const record = await recordOf(live.ledger, "long_job", since);
    caller.abort(new Error("the agent disconnected"));
    await expect(call).rejects.toThrow("the agent disconnected");
    expect(live.ledger.get(record.id)).toMatchObject({ state: "cancelled", outcome: "cancelled: the caller stopped waiting (the agent disconnected)" });
    if (server) await until(async () => (await server!.seen()).some((s) => s.method === "tasks/cancel" && s.taskId === record.taskId), 5_000, "tasks/cancel of the abandoned task");
  }, 20_000);
});

describe("restarts mid-task", () => {
  it("the companion restarts: a new run with the same ledger follows the task again, asks its question again, and writes its end", async () => {
    const server = await startTasksServer2026();
    const ledger = memoryLedger();
    const config = { tasks: { url: server.url } };
    try {
      policy = () => undefined;
      const first = await run(config, ledger);
      const from = person.seen.length;
      const since = Date.now();
      const call = tool(first.source, "greet").execute({}, { agent: "greeter-bot" });
      call.catch(() => undefined);
      await asked("What is your name?", from);
      const record = await recordOf(ledger, "greet", since);
      await until(() => ledger.get(record.id)?.state === "input_required", 5_000, "the task to wait on its question");
      await first.source.close();
      await expect(call).rejects.toThrow("greet was left running as a task");
      expect(ledger.get(record.id)?.state).toBe("input_required");

      policy = luca;
      const again = person.seen.length;
      const second = await run(config, ledger);
      try {
        const question = await asked("What is your name?", again);
        expect(question.source).toEqual({ server: "tasks", agent: "greeter-bot", tool: "greet" });
        const ended = await until(() => (ledger.get(record.id)?.state === "completed" ? ledger.get(record.id) : undefined), 10_000, () => `the resumed task to complete; it is ${JSON.stringify(ledger.get(record.id))}`);
        expect(ended).toMatchObject({ outcome: "Hello, Luca!", agent: "greeter-bot", taskId: record.taskId });
        expect(second.told.at(-1)).toMatchObject({ id: record.id, state: "completed" });
      } finally {
        await second.source.close();
      }
    } finally {
      policy = () => undefined;
      await server.close();
    }
  }, 40_000);

  it("the server restarts on its port (streamable HTTP): the new process does not know the task, so it is gone and the caller is told", async () => {
    let server = await startTasksServer2026();
    const live = await run({ tasks: { url: server.url } });
    try {
      const since = Date.now();
      const call = tool(live.source, "long_job").execute({});
      call.catch(() => undefined);
      const record = await recordOf(live.ledger, "long_job", since);
      await server.close();
      server = await startTasksServer2026(server.port);
      await expect(call).rejects.toThrow("tasks: long_job's task is gone: the server no longer knows it");
      expect(live.ledger.get(record.id)).toMatchObject({ state: "gone", outcome: "the server no longer knows this task" });
    } finally {
      await live.source.close();
      await server.close();
    }
  }, 40_000);

  it("the server restarts (stdio, its connection replaced): the caller is told, and the task, unknown to the new process, is gone", async () => {
    const live = await run({ tasks: { ...tasksServer2026Command(), protocol: "auto" } });
    try {
      const since = Date.now();
      const call = tool(live.source, "long_job").execute({});
      call.catch(() => undefined);
      const record = await recordOf(live.ledger, "long_job", since);
      const fresh = await live.source.replace(live.source.connection("tasks")!.config);
      await expect(call).rejects.toThrow("tasks: long_job was left running as a task");
      await fresh.connect();
      await until(() => live.ledger.get(record.id)?.state === "gone", 10_000, "the task to be marked gone");
      expect(live.ledger.get(record.id)?.outcome).toBe("the server no longer knows this task");
    } finally {
      await live.source.close();
    }
  }, 40_000);
});

describe("a 2026-07-28 server that does not declare the extension", () => {
  it("a tool it runs only as a task is refused with -32021; the call fails saying the server did not declare the extension", async () => {
    const command = tasksServer2026Command();
    const live = await run({ bare: { ...command, args: [...command.args, "--no-extension"], protocol: "auto" } });
    try {
      expect(live.source.connection("bare")?.era()).toBe("modern");
      expect(await outputOf(tool(live.source, "plain").execute({}))).toEqual({ output: "plain answer", isError: false });
      const refused = tool(live.source, "needs_tasks").execute({});
      await expect(refused).rejects.toThrow("bare: needs_tasks runs only as a task (the io.modelcontextprotocol/tasks extension), which the server did not declare at initialize");
      await expect(refused).rejects.toMatchObject({ code: -32021 });
      expect(live.ledger.all()).toEqual([]);
    } finally {
      await live.source.close();
    }
  }, 20_000);
});
