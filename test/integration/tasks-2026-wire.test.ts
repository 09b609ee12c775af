// The companion's 2026-07-28 tasks wire (mcp/tasks/modern-wire.ts) against the tasks fixture
// (tasks-server-2026.ts, held to ext-tasks' own client in tasks-2026-fixture.test.ts), through a
// real SDK Client connected to it the way a connection connects (versionNegotiation auto, over the
// connection's own transports: transports.ts's streamable HTTP with its bounded fetch, and the
// process-group stdio transport): a
// call that becomes a task and is polled to its result, a plain result, a task that asks through
// inputRequests and is answered with tasks/update, cancel, failure, -32021 named (and the retry
// it allows), a call that asks before it runs, and a server restarted mid-task.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type ClientCapabilities, type Transport } from "@modelcontextprotocol/client";
import { GroupStdioTransport } from "../../src/main/mcp/connection/stdio-transport";
import { streamableTransport } from "../../src/main/mcp/connection/transports";
import { CLIENT_INFO } from "../../src/main/mcp/connection/lifecycle";
import { ToolCallError } from "../../src/main/mcp/call-paths/call-path";
import { modernTaskWire, requiresTasksExtension, type AnswerInputs, type ModernTaskWire } from "../../src/main/mcp/tasks/modern-wire";
import type { TaskInputRequest, TaskSnapshot, TaskStart } from "../../src/main/mcp/tasks/wire";
import { startTasksServer2026, tasksServer2026Command, type RunningTasksServer } from "../fixtures/tasks-server-2026-run";
import { until } from "../helpers/poll";

const CAPABILITIES: ClientCapabilities = { elicitation: { form: {}, url: {} } };
const never = new AbortController().signal;

/** The connection's streamable HTTP transport (transports.ts), with no headers and no sign-in. */
function http(url: string): Transport {
  return streamableTransport({ url: new URL(url), headers: {}, onTooLarge: (error) => { throw error; } }, () => {});
}

async function connected(transport: Transport, capabilities = CAPABILITIES, answerInputs?: AnswerInputs): Promise<{ client: Client; wire: ModernTaskWire }> {
  const client = new Client(CLIENT_INFO, { capabilities, versionNegotiation: { mode: "auto" } });
  await client.connect(transport);
  return { client, wire: modernTaskWire(client, transport, { server: "tasks", clientInfo: CLIENT_INFO, clientCapabilities: capabilities, answerInputs }) };
}

function taskOf(start: TaskStart): TaskSnapshot {
  if (start.kind !== "task") throw new Error(`expected a task, got a result: ${JSON.stringify(start.result)}`);
  return start.task;
}

/** Polls tasks/get until the task reaches `status`. */
function reaches(wire: ModernTaskWire, taskId: string, status: TaskSnapshot["status"]): Promise<TaskSnapshot> {
  let last: TaskSnapshot | undefined;
  return until(
    async () => {
      last = await wire.get(taskId, never);
      return last.status === status && last;
    },
    5000,
    () => `task ${taskId} to be ${status} (last: ${last?.status})`,
  );
}

function firstText(result: unknown): string | undefined {
  return (result as { content?: { text?: string }[] }).content?.[0]?.text;
}

describe("the 2026-07-28 tasks wire over streamable HTTP", () => {
  let server: RunningTasksServer;
  let client: Client;
  let wire: ModernTaskWire;
  const asked: Record<string, TaskInputRequest>[] = [];

  beforeAll(async () => {
    server = await startTasksServer2026();
    ({ client, wire } = await connected(http(server.url), CAPABILITIES, async (requests) => {
      asked.push(requests);
      return { confirm: { action: "accept", content: { ok: true } } };
    }));
  }, 20_000);
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it("calls a tool that becomes a task, and polls it to its result", async () => {
    const task = taskOf(await wire.callTool("echo_later", { text: "hi", ms: 100 }, never));
    expect(task).toMatchObject({ status: "working", statusMessage: "echoing", pollIntervalMs: 50, ttlMs: 60_000 });
    const done = await reaches(wire, task.taskId, "completed");
    expect(firstText(done.result)).toBe("echo: hi");
    expect(done.inputRequests).toBeUndefined();
    // Every tasks/get carried the task's id in its Mcp-Name header (the SDK transport sets it).
    const seen = (await server.seen()).filter((s) => s.taskId === task.taskId);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.method === "tasks/get" && s.mcpName === task.taskId)).toBe(true);
  });

  it("hands back a plain result when the server answers plainly", async () => {
    const start = await wire.callTool("plain", {}, never);
    expect(start).toEqual({ kind: "result", result: { content: [{ type: "text", text: "plain answer" }], _meta: expect.anything() } });
  });

  it("surfaces inputRequests, sends the answer with tasks/update, and gets the completed greeting", async () => {
    const task = taskOf(await wire.callTool("greet", {}, never));
    const waiting = await reaches(wire, task.taskId, "input_required");
    expect(waiting.statusMessage).toBe("waiting for your name");
    expect(waiting.inputRequests).toEqual({
      name: {
        method: "elicitation/create",
        params: { mode: "form", message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] } },
      },
    });
    await wire.update!(task.taskId, { name: { action: "accept", content: { name: "Luca" } } }, never);
    const done = await reaches(wire, task.taskId, "completed");
    expect(firstText(done.result)).toBe("Hello, Luca!");
    const updates = (await server.seen()).filter((s) => s.method === "tasks/update");
    expect(updates).toEqual([{ method: "tasks/update", mcpName: task.taskId, taskId: task.taskId }]);
  });

  it("cancels a task", async () => {
    const task = taskOf(await wire.callTool("long_job", {}, never));
    await wire.cancel(task.taskId, never);
    expect(await wire.get(task.taskId, never)).toMatchObject({ status: "cancelled", statusMessage: "cancelled by the client" });
  });

  it("reports a failed task's JSON-RPC error", async () => {
    const task = taskOf(await wire.callTool("fail_job", {}, never));
    const failed = await reaches(wire, task.taskId, "failed");
    expect(failed.error).toEqual({ code: -32603, message: "backend refused the job" });
  });

  it("answers a call that asks before it runs, then follows the task it starts", async () => {
    asked.length = 0;
    const task = taskOf(await wire.callTool("confirm_first", {}, never));
    expect(asked).toEqual([{ confirm: { method: "elicitation/create", params: expect.objectContaining({ message: "Start the job?" }) } }]);
    expect(firstText((await reaches(wire, task.taskId, "completed")).result)).toBe("confirmed");
  });

  it("retries through the wire a call the SDK path was refused for want of the extension alone (-32021)", async () => {
    const refused = await client.callTool({ name: "needs_tasks", arguments: {} }).catch((e: unknown) => e);
    expect(requiresTasksExtension(refused)).toBe(true);
    const task = taskOf(await wire.callTool("needs_tasks", {}, never));
    expect(firstText((await reaches(wire, task.taskId, "completed")).result)).toBe("ran as a task");
  });

  it("names the capability a -32021 says is missing", async () => {
    // No elicitation declared: the SDK server refuses the input_required answer it would give.
    const { client: bare, wire: bareWire } = await connected(http(server.url), {});
    try {
      const error = await bareWire.callTool("confirm_first", {}, never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolCallError);
      expect((error as ToolCallError).code).toBe(-32021);
      expect((error as ToolCallError).message).toMatch(/^tasks: confirm_first needs client capabilities the companion does not declare: elicitation/);
      expect(requiresTasksExtension(error)).toBe(false);
    } finally {
      await bare.close();
    }
  });

  it("gives up a call on its abort, at once, and the server stops working on it", async () => {
    const abort = new AbortController();
    const call = wire.callTool("slow_plain", { ms: 10_000 }, abort.signal);
    await until(async () => (await server.seen()).some((s) => s.method === "started" && s.tool === "slow_plain"), 5000, "the call to reach the server");
    abort.abort(new Error("the person cancelled the call"));
    await expect(call).rejects.toThrow("the person cancelled the call");
    await until(async () => (await server.seen()).some((s) => s.method === "aborted" && s.tool === "slow_plain"), 5000, "the server to see the call given up");
  });

  it("rejects -32602 for a task the server does not know, and fails everything once closed", async () => {
    await expect(wire.get("no-such-task", never)).rejects.toMatchObject({ code: -32602 });
    const { client: other, wire: otherWire } = await connected(http(server.url));
    otherWire.close(new Error("the server connection closed"));
    await expect(otherWire.get("any", never)).rejects.toThrow("the server connection closed");
    await other.close();
  });

  // Last: the server it leaves running is a new process.
  it("gets -32602 from a restarted server for a task the old process started", async () => {
    const task = taskOf(await wire.callTool("long_job", {}, never));
    expect((await wire.get(task.taskId, never)).status).toBe("working");
    const port = server.port;
    await server.close();
    server = await startTasksServer2026(port);
    // The 2026-07-28 HTTP wire has no session: the same client reaches the new process.
    const error = await wire.get(task.taskId, never).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining("Task not found") });
  }, 20_000);
});

describe("the 2026-07-28 tasks wire over stdio", () => {
  it("runs a task to its result on the pipe", async () => {
    const { command, args, cwd } = tasksServer2026Command();
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    const { client, wire } = await connected(new GroupStdioTransport({ command, args, cwd, env }));
    try {
      const task = taskOf(await wire.callTool("echo_later", { text: "piped", ms: 50 }, never));
      expect(firstText((await reaches(wire, task.taskId, "completed")).result)).toBe("echo: piped");
    } finally {
      await client.close();
    }
  }, 20_000);
});
