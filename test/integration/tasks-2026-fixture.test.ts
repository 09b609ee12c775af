// The 2026-07-28 tasks fixture (tasks-server-2026.ts) is held to software we did not write:
// ext-tasks' own requester (createTaskSessionFromClient over the SDK's Client, with the raw
// dispatch and v2 request framing a 2026-07-28 tasks server needs) gets the documented outcomes
// from it, over streamable HTTP and over stdio; the SDK client, which does not declare the
// extension, is answered -32021. The raw dispatch here is the test's own few lines, not the
// companion's (modern-dispatch.ts), so a fault there cannot hide one in the fixture.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  createTaskSessionFromClient,
  JsonRpcResponseError,
  resultFromTaskOutcome,
  type ApplicationInputRequest,
  type JsonRpcResponse,
  type RawClientDispatch,
  type TaskEnabledSession,
} from "@modelcontextprotocol/ext-tasks/client";
import { taskId } from "@modelcontextprotocol/ext-tasks/core";
import { startTasksServer2026, tasksServer2026Command, type RunningTasksServer } from "../fixtures/tasks-server-2026-run";

const TASKS = "io.modelcontextprotocol/tasks";
const CLIENT_INFO = { name: "fixture-check", version: "1.0.0" };
const CAPABILITIES = { elicitation: { form: {} } };

/** Sends the framed request on the transport and takes its response off before the SDK client sees it. */
function rawDispatchOver(transport: Transport): RawClientDispatch {
  const waiting = new Map<string, (response: JsonRpcResponse) => void>();
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
    const answer = typeof m.id === "string" && m.method === undefined ? waiting.get(m.id) : undefined;
    if (!answer) return deliver?.call(transport, message, extra);
    waiting.delete(m.id as string);
    answer(m.error !== undefined ? { kind: "error", error: m.error as never } : { kind: "result", result: m.result as never });
  };
  let next = 0;
  return async (request, options) => {
    const id = `check-${++next}`;
    const response = new Promise<JsonRpcResponse>((resolve) => waiting.set(id, resolve));
    await transport.send({ ...(request as object), jsonrpc: "2.0", id } as never, { requestSignal: options?.signal });
    return response;
  };
}

async function connect(transport: Transport): Promise<{ client: Client; session: TaskEnabledSession; asked: ApplicationInputRequest[] }> {
  const client = new Client(CLIENT_INFO, { capabilities: CAPABILITIES, versionNegotiation: { mode: "auto" } });
  await client.connect(transport);
  const asked: ApplicationInputRequest[] = [];
  const session = createTaskSessionFromClient(client, {
    endpointId: "tasks-server-2026",
    rawDispatch: rawDispatchOver(transport),
    v2RequestFraming: { protocolVersion: client.getNegotiatedProtocolVersion()!, clientInfo: CLIENT_INFO, clientCapabilities: CAPABILITIES },
    onInputRequest: async (request) => {
      asked.push(request);
      return { action: "accept", content: { name: "Luca", ok: true } } as never;
    },
  });
  return { client, session, asked };
}

function firstText(result: unknown): string | undefined {
  return (result as { content?: { text?: string }[] }).content?.[0]?.text;
}

describe("the 2026-07-28 tasks fixture, driven by ext-tasks' client over streamable HTTP", () => {
  let server: RunningTasksServer;
  let client: Client;
  let session: TaskEnabledSession;
  let asked: ApplicationInputRequest[];

  beforeAll(async () => {
    server = await startTasksServer2026();
    ({ client, session, asked } = await connect(new StreamableHTTPClientTransport(new URL(server.url))));
  }, 20_000);
  afterAll(async () => {
    await session?.close();
    await client?.close();
    await server?.close();
  });

  it("negotiates 2026-07-28 and declares the extension in server/discover", () => {
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getServerCapabilities()?.extensions?.[TASKS]).toEqual({});
    expect(session.capabilities.execution).toBe(true);
    expect(session.capabilities.inputResponses).toBe(true);
  });

  it("answers a tools/call with a task that completes after a while", async () => {
    const execution = await session.callTool("echo_later", { text: "hi", ms: 100 });
    expect(execution.kind).toBe("task");
    const { outcome, lastTask } = await execution.settle();
    expect(outcome.status).toBe("completed");
    expect(firstText(resultFromTaskOutcome(outcome))).toBe("echo: hi");
    expect(lastTask?.suggestedPollIntervalMs).toBe(50);
  });

  it("asks through inputRequests (an elicitation/create form) and completes with the answer", async () => {
    asked.length = 0;
    const execution = await session.callTool("greet", {});
    const { outcome } = await execution.settle();
    expect(asked).toEqual([{ kind: "elicitation", params: expect.objectContaining({ mode: "form", message: "What is your name?" }) }]);
    expect(firstText(resultFromTaskOutcome(outcome))).toBe("Hello, Luca!");
  });

  it("honours tasks/cancel", async () => {
    const execution = await session.callTool("long_job", {});
    expect(execution.kind).toBe("task");
    if (execution.kind !== "task") return;
    await execution.cancel();
    const snapshot = await session.task(execution.handle.taskId).snapshot();
    expect(snapshot.status).toBe("cancelled");
    expect(snapshot.statusMessage).toBe("cancelled by the client");
  });

  it("reports a failed task with its JSON-RPC error", async () => {
    const execution = await session.callTool("fail_job", {});
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("failed");
    if (outcome.status === "failed") expect(outcome.error.code).toBe(-32603);
  });

  it("answers plainly when it chooses to, and asks before it runs (input_required) when it must", async () => {
    expect((await session.callTool("plain", {})).kind).toBe("immediate");
    asked.length = 0;
    const confirmed = await session.callTool("confirm_first", {});
    const { outcome } = await confirmed.settle();
    expect(asked.map((a) => a.kind)).toEqual(["elicitation"]);
    expect(firstText(resultFromTaskOutcome(outcome))).toBe("confirmed");
  });

  it("answers -32602 to tasks/get of a task it does not know", async () => {
    const error = await session.task(taskId("no-such-task")).snapshot().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcResponseError);
    expect((error as JsonRpcResponseError).code).toBe(-32602);
  });

  it("answers -32021 naming the extension to the SDK client, which does not declare it", async () => {
    const error = (await client.callTool({ name: "needs_tasks", arguments: {} }).catch((e: unknown) => e)) as { code?: number; data?: unknown };
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    // Without the extension, a tool that may run either way answers inline instead.
    expect(firstText(await client.callTool({ name: "echo_later", arguments: { text: "inline", ms: 10 } }))).toBe("echo: inline");
    const withTasks = await session.callTool("needs_tasks", {});
    expect(withTasks.kind).toBe("task");
    expect(firstText(resultFromTaskOutcome((await withTasks.settle()).outcome))).toBe("ran as a task");
  });

  it("gives unguessable task ids, each routed by its Mcp-Name header", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const execution = await session.callTool("needs_tasks", {});
      if (execution.kind === "task") ids.push(execution.handle.taskId);
      await execution.settle();
    }
    expect(ids[0]).not.toBe(ids[1]);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const seen = (await server.seen()).filter((s) => s.method.startsWith("tasks/"));
    expect(seen.length).toBeGreaterThan(0);
    for (const request of seen) expect(request.mcpName).toBe(request.taskId);
  });
});

describe("the 2026-07-28 tasks fixture over stdio", () => {
  it("runs a task to its result for ext-tasks' client", async () => {
    const { command, args, cwd } = tasksServer2026Command();
    const { client, session } = await connect(new StdioClientTransport({ command, args, cwd, stderr: "pipe" }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const execution = await session.callTool("echo_later", { text: "over stdio", ms: 50 });
      expect(execution.kind).toBe("task");
      expect(firstText(resultFromTaskOutcome((await execution.settle()).outcome))).toBe("echo: over stdio");
    } finally {
      await session.close();
      await client.close();
    }
  }, 20_000);
});
