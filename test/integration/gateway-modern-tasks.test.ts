// Tasks for 2026-07-28 agents through the gateway, with ext-tasks' own requester
// (createTaskSessionFromClient over the SDK v2 client negotiating 2026-07-28, with the raw dispatch
// and v2 request framing the extension needs): call → the gateway's task → poll → result; a
// question inside the task answered by the agent through tasks/update; cancel; another credential
// cannot read or cancel the task; an agent that did not declare the extension gets a plain result
// and -32021 for a task method; requests in flight are capped per credential. The server side is
// an in-process stand-in source whose tools offer tasks (as McpTool.execute presents them).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import {
  createTaskSessionFromClient,
  JsonRpcResponseError,
  resultFromTaskOutcome,
  type ApplicationInputRequest,
  type JsonRpcResponse,
  type RawClientDispatch,
  type TaskEnabledSession,
} from "@modelcontextprotocol/ext-tasks/client";
import { startListener, type Listener } from "../../src/main/http/listener";
import { agentCredential } from "../../src/main/http/agent-credential";
import { createGatewayRoute, type GatewayOptions, type GatewayRoute } from "../../src/main/gateway";
import { companionPolicy } from "../../src/main/app/companion-server";
import type { ExecuteContext, McpTool } from "../../src/main/mcp/types";
import { standInSource } from "../helpers/stand-in-source";
import { until } from "../helpers/poll";
import { agentOutbound, rawRequest, startCompanion } from "./gateway-harness";
import { tasksServer2026Command } from "../fixtures/tasks-server-2026-run";
import { textOfV1 } from "./v1-agent";

const TOKEN = "modern-tasks-token";
const TASKS = "io.modelcontextprotocol/tasks";
let listener: Listener | undefined;
let gateway: GatewayRoute | undefined;
const closers: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c.close().catch(() => {});
  await gateway?.close();
  await listener?.close();
  gateway = listener = undefined;
});

interface Seen {
  contexts: ExecuteContext[];
  aborted: unknown[];
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

function taskTools(seen: Seen): Array<Pick<McpTool, "name" | "server" | "tool" | "execute"> & Partial<McpTool>> {
  const definition = (tool: string, taskSupport?: string) => ({ name: tool, inputSchema: { type: "object" }, ...(taskSupport ? { execution: { taskSupport } } : {}) });
  return [
    {
      name: "demo_research", server: "demo", tool: "research", definition: definition("research", "required"),
      async execute(args, ctx = {}) {
        seen.contexts.push(ctx);
        ctx.onprogress?.({ progress: 1, total: 2, message: "Gathering sources" });
        await delay(100, ctx.signal);
        return { content: [{ type: "text", text: `report on ${String(args.topic)}` }] };
      },
    },
    {
      name: "demo_forever", server: "demo", tool: "forever", definition: definition("forever", "required"),
      async execute(_args, ctx = {}) {
        seen.contexts.push(ctx);
        try {
          await delay(60_000, ctx.signal);
        } catch (error) {
          seen.aborted.push(error);
          throw error;
        }
        return { content: [] };
      },
    },
    {
      name: "demo_clarify", server: "demo", tool: "clarify", definition: definition("clarify", "optional"),
      async execute(_args, ctx = {}) {
        seen.contexts.push(ctx);
        if (!ctx.elicit) return { content: [{ type: "text", text: "asked the person" }] };
        const answer = await ctx.elicit({ mode: "form", message: "Which topic?", requestedSchema: { type: "object", properties: { topic: { type: "string" } } } }, ctx.signal ?? new AbortController().signal);
        return { content: [{ type: "text", text: `clarified: ${JSON.stringify(answer)}` }] };
      },
    },
  ];
}

async function start(options: Partial<GatewayOptions> = {}) {
  const seen: Seen = { contexts: [], aborted: [] };
  const source = standInSource(taskTools(seen));
  // A short poll interval: ext-tasks' requester waits what the task says between polls.
  gateway = createGatewayRoute({ source, outbound: agentOutbound(), tasks: { pollIntervalMs: 50 }, ...options });
  listener = await startListener({ port: 0, token: () => TOKEN, staticDir: mkdtempSync(join(tmpdir(), "tnc-modern-tasks-")), ...companionPolicy(() => TOKEN, [gateway]) });
  return { seen, source, url: `${listener.url}/mcp` };
}

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
    const id = `agent-${++next}`;
    const response = new Promise<JsonRpcResponse>((resolve) => waiting.set(id, resolve));
    await transport.send({ ...(request as object), jsonrpc: "2.0", id } as never, { requestSignal: options?.signal });
    return response;
  };
}

interface Agent {
  client: Client;
  session: TaskEnabledSession;
  asked: ApplicationInputRequest[];
  dispatch: RawClientDispatch;
}

async function taskAgent(url: string, name: string, bearer = TOKEN, capabilities: Record<string, unknown> = {}): Promise<Agent> {
  const clientInfo = { name, version: "1.0.0" };
  const client = new Client(clientInfo, { capabilities, versionNegotiation: { mode: "auto" } });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } });
  await client.connect(transport);
  closers.push(client);
  const asked: ApplicationInputRequest[] = [];
  const dispatch = rawDispatchOver(transport);
  const session = createTaskSessionFromClient(client, {
    endpointId: "toolnexus-gateway",
    rawDispatch: dispatch,
    v2RequestFraming: { protocolVersion: client.getNegotiatedProtocolVersion()!, clientInfo, clientCapabilities: capabilities as never },
    onInputRequest: async (request) => {
      asked.push(request);
      return { action: "accept", content: { topic: "tides" } } as never;
    },
  });
  closers.push(session);
  return { client, session, asked, dispatch };
}

async function plainAgent(url: string, name: string, bearer = TOKEN): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }));
  closers.push(client);
  return client;
}

const FRAME = (name: string, capabilities: Record<string, unknown>) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name, version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});

describe("a 2026-07-28 agent that declares the tasks extension", () => {
  it("gets the gateway's task for a tool that offers tasks, polls it and gets the result", async () => {
    const { url } = await start();
    const { client, session } = await taskAgent(url, "task-agent");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getServerCapabilities()?.extensions?.[TASKS]).toEqual({});
    const execution = await session.callTool("demo_research", { topic: "currents" });
    expect(execution.kind).toBe("task");
    if (execution.kind !== "task") return;
    expect(execution.handle.taskId).toMatch(/^gwt-[A-Za-z0-9_-]{24}$/);
    const { outcome } = await execution.settle();
    expect(outcome).toMatchObject({ status: "completed", task: { statusMessage: "Gathering sources" } });
    expect(textOfV1(resultFromTaskOutcome(outcome))).toBe("report on currents");
  });

  it("a question inside the task is the agent's to answer with tasks/update when who answers says so", async () => {
    const { url } = await start({ elicitation: { default: "person", agents: { "answering-agent": "agent" } } });
    const { session, asked } = await taskAgent(url, "answering-agent", TOKEN, { elicitation: { form: {} } });
    const execution = await session.callTool("demo_clarify", {});
    expect(execution.kind).toBe("task");
    const { outcome } = await execution.settle();
    expect(asked).toEqual([{ kind: "elicitation", params: expect.objectContaining({ mode: "form", message: "Which topic?" }) }]);
    expect(textOfV1(resultFromTaskOutcome(outcome))).toBe('clarified: {"action":"accept","content":{"topic":"tides"}}');
  });

  it("cancel aborts the call's signal and the task reads cancelled", async () => {
    const { url, seen } = await start();
    const { session } = await taskAgent(url, "task-agent");
    const execution = await session.callTool("demo_forever", {});
    if (execution.kind !== "task") throw new Error("expected a task");
    await until(() => seen.contexts.length === 1, 5000, "the call to start");
    await execution.cancel();
    await until(() => seen.aborted.length === 1, 5000, "the call's signal to abort");
    expect((await session.task(execution.handle.taskId).snapshot()).status).toBe("cancelled");
  });

  it("another credential cannot read, answer or cancel the task: it is told what an unknown id is", async () => {
    const { url, seen } = await start();
    const owner = await taskAgent(url, "task-agent", agentCredential(TOKEN, "codex"));
    const other = await taskAgent(url, "task-agent", agentCredential(TOKEN, "cursor"));
    const execution = await owner.session.callTool("demo_forever", {});
    if (execution.kind !== "task") throw new Error("expected a task");
    const taskId = execution.handle.taskId;
    const meta = FRAME("task-agent", { extensions: { [TASKS]: {} } });
    const unknown = await other.dispatch({ method: "tasks/get", params: { taskId: "gwt-AAAAAAAAAAAAAAAAAAAAAAAA", _meta: meta } } as never);
    expect(unknown).toMatchObject({ kind: "error", error: { code: -32602 } });
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const params = { taskId, _meta: meta, ...(method === "tasks/update" ? { inputResponses: {} } : {}) };
      const answer = await other.dispatch({ method, params } as never);
      expect(answer).toEqual(unknown);
    }
    expect((await owner.session.task(taskId).snapshot()).status).toBe("working");
    expect(seen.aborted).toEqual([]);
    const snapshot = await other.session.task(taskId).snapshot().catch((e: unknown) => e);
    expect(snapshot).toBeInstanceOf(JsonRpcResponseError);
  });
});

describe("a 2026-07-28 agent, a 2026-07-28 tasks server behind the companion", () => {
  it("gets the gateway's task for a tool of a server that declares the extension (its tools list no taskSupport on that wire)", async () => {
    const companion = await startCompanion({ config: { mcpServers: { t26: tasksServer2026Command() } } });
    closers.push(companion);
    const { session } = await taskAgent(companion.mcpUrl, "task-agent", companion.token);
    const echo = await session.callTool("t26_echo_later", { text: "through", ms: 50 });
    expect(echo.kind).toBe("task");
    if (echo.kind !== "task") return;
    // The gateway's own task: whatever the companion does with the server stays inside it.
    expect(echo.handle.taskId).toMatch(/^gwt-/);
    expect(textOfV1(resultFromTaskOutcome((await echo.settle()).outcome))).toBe("echo: through");
  }, 20_000);
});

describe("a 2026-07-28 agent that does not declare the extension", () => {
  it("gets a plain result from the same tool, and -32021 for a task method", async () => {
    const { url } = await start();
    const client = await plainAgent(url, "plain-agent");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(textOfV1(await client.callTool({ name: "demo_research", arguments: { topic: "waves" } }))).toBe("report on waves");
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "demo_research")?.execution).toBeUndefined();
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${TOKEN}`, "mcp-protocol-version": "2026-07-28", "mcp-method": "tasks/get", "mcp-name": "gwt-x" };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tasks/get", params: { taskId: "gwt-x", _meta: FRAME("plain-agent", {}) } });
    const refused = await rawRequest(url, { headers, body });
    expect(refused.headers["content-type"]).toMatch(/application\/json/);
    const { error } = JSON.parse(refused.body);
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
  });
});

describe("a call that asks the agent (input_required)", () => {
  it("is cancelled when the agent never comes back with the answers, and a retry naming it is then refused", async () => {
    const { url, seen } = await start({ elicitation: { default: "person", agents: { "manual-agent": "agent" } }, modernInputWaitMs: 150 });
    const client = new Client({ name: "manual-agent", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "auto" }, inputRequired: { autoFulfill: false } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    closers.push(client);
    const asked = (await client.callTool({ name: "demo_clarify", arguments: {} }, { allowInputRequired: true })) as unknown as { resultType: string; inputRequests: Record<string, { method: string; params: { message: string } }>; requestState: string };
    expect(asked.resultType).toBe("input_required");
    expect(Object.values(asked.inputRequests)).toEqual([expect.objectContaining({ method: "elicitation/create", params: expect.objectContaining({ message: "Which topic?" }) })]);
    expect(asked.requestState).toMatch(/^gwt-/);
    await until(() => seen.contexts[0]?.signal?.aborted === true, 5000, "the abandoned call to be cancelled");
    const key = Object.keys(asked.inputRequests)[0]!;
    const retry = await client
      .callTool({ name: "demo_clarify", arguments: {}, inputResponses: { [key]: { action: "accept", content: { topic: "late" } } }, requestState: asked.requestState } as never)
      .then(() => undefined, (e: unknown) => e as { code?: number; message?: string });
    expect(retry?.code).toBe(-32602);
    expect(retry?.message).toMatch(/requestState/);
  });
});

describe("changes for an agent without a session", () => {
  it("a changed tool set reaches its subscriptions/listen stream", async () => {
    const { url, source } = await start();
    const changed: string[][] = [];
    const client = new Client(
      { name: "listening-agent", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" }, listChanged: { tools: { debounceMs: 0, onChanged: (_error, tools) => changed.push((tools ?? []).map((t) => t.name)) } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    closers.push(client);
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    // The client opens its listen stream after connect, at a moment the test cannot see: the change
    // is announced again until the agent has heard it (no debounce, which repeats would put off).
    source.tools.pop();
    await until(async () => {
      source.emit({ type: "tools-changed", server: "demo" });
      return changed.length > 0;
    }, 5000, "the agent to be told the tools changed");
    expect(changed.at(-1)).toEqual(["demo_research", "demo_forever"]);
  });
});

describe("the bounds on requests without a session", () => {
  it("caps requests in flight per credential (429 with Retry-After), not another credential's", async () => {
    const { url, seen } = await start({ maxSessions: { perCredential: 1 } });
    const a = await plainAgent(url, "a", agentCredential(TOKEN, "codex"));
    const b = await plainAgent(url, "b", agentCredential(TOKEN, "cursor"));
    const held = new AbortController();
    const call = a.callTool({ name: "demo_forever", arguments: {} }, { signal: held.signal }).catch((e: unknown) => e);
    await until(() => seen.contexts.length === 1, 5000, "the held call to start");
    const refused = await a.listTools().then(() => undefined, (e: unknown) => e as Error);
    expect(String(refused?.message)).toMatch(/MAX_MCP_SESSIONS_PER_CREDENTIAL/);
    expect((await b.listTools()).tools.length).toBe(3);
    held.abort();
    await call;
    await until(() => seen.aborted.length === 1, 5000, "the held call to be given up");
    await until(() => a.listTools().then(() => true, () => false), 5000, "the credential's room to come back");
  });
});
