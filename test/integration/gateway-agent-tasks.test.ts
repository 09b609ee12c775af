// Tasks for agents through the gateway, with the SDK v1 client (@modelcontextprotocol/sdk) as the
// agent over streamable HTTP: one that declared tasks gets task-only tools as such and runs them
// with its experimental tasks API (a task of the gateway's own, `gwt-…`); one that did not gets
// the same tools without taskSupport and calls them plainly. Cancel reaches the call's signal, a
// question inside the task reaches the agent on tasks/result when "who answers" says so, another
// session cannot see a task, and the caps and ttl hold. The server side is an in-process
// stand-in source whose tools need a task (as McpTool.execute presents a server's task-only tool).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, resultFromTaskOutcome, toolDeclarationFromMcpTool } from "@modelcontextprotocol/ext-tasks/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema, ElicitRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { startListener, type Listener } from "../../src/main/http/listener";
import { createGatewayRoute, type GatewayOptions, type GatewayRoute } from "../../src/main/gateway";
import { companionPolicy } from "../../src/main/app/companion-server";
import type { ExecuteContext, McpTool } from "../../src/main/mcp/types";
import { standInSource } from "../helpers/stand-in-source";
import { until } from "../helpers/poll";
import { agentOutbound } from "./gateway-harness";
import { textOfV1 } from "./v1-agent";

const TOKEN = "agent-tasks-token";
let listener: Listener | undefined;
let gateway: GatewayRoute | undefined;
const clients: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  await gateway?.close();
  await listener?.close();
  gateway = listener = undefined;
});

/** What the stand-in's calls saw: each call's context, and how its signal ended. */
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
  const definition = (tool: string, taskSupport?: string) => ({ name: tool, inputSchema: { type: "object" }, ...(taskSupport ? { execution: { taskSupport } } : {}), annotations: { readOnlyHint: true } });
  return [
    {
      name: "demo_research", server: "demo", tool: "research", definition: definition("research", "required"),
      async execute(args, ctx = {}) {
        seen.contexts.push(ctx);
        ctx.onprogress?.({ progress: 1, total: 2, message: "Gathering sources" });
        await delay(150, ctx.signal);
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
    {
      name: "demo_plain", server: "demo", tool: "plain", definition: definition("plain"),
      async execute() {
        return { content: [{ type: "text", text: "plain" }] };
      },
    },
  ];
}

async function start(options: Partial<GatewayOptions> = {}) {
  const seen: Seen = { contexts: [], aborted: [] };
  gateway = createGatewayRoute({ source: standInSource(taskTools(seen)), outbound: agentOutbound(), ...options });
  listener = await startListener({ port: 0, token: () => TOKEN, staticDir: mkdtempSync(join(tmpdir(), "tnc-agent-tasks-")), ...companionPolicy(() => TOKEN, [gateway]) });
  return { seen, url: `${listener.url}/mcp` };
}

async function agent(url: string, name: string, capabilities: Record<string, unknown>, onElicit?: (params: unknown) => Record<string, unknown>): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, { capabilities });
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, (request) => onElicit(request.params) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  clients.push(client);
  await client.listTools();
  return client;
}

const TASKS = { tasks: { list: {}, cancel: {} } };

async function streamed(client: Client, name: string, args: Record<string, unknown> = {}) {
  const messages: Array<{ type: string; [key: string]: unknown }> = [];
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args })) messages.push(message as never);
  return messages;
}

async function createTask(client: Client, name: string): Promise<string> {
  const created = await client.request({ method: "tools/call", params: { name, arguments: {}, task: {} } }, CreateTaskResultSchema);
  return created.task.taskId;
}

async function refusal(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe("an agent that declared tasks", () => {
  it("is offered task-only tools as the server offers them and gets the result through its own task", async () => {
    const { url } = await start();
    const client = await agent(url, "task-agent", TASKS);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "demo_research")?.execution).toEqual({ taskSupport: "required" });
    expect(tools.find((t) => t.name === "demo_clarify")?.execution).toEqual({ taskSupport: "optional" });
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {}, requests: { tools: { call: {} } } });

    const messages = await streamed(client, "demo_research", { topic: "tides" });
    const created = messages.find((m) => m.type === "taskCreated") as { task: { taskId: string; status: string; pollInterval?: number } } | undefined;
    expect(created?.task.taskId).toMatch(/^gwt-[A-Za-z0-9_-]{24}$/);
    expect(created?.task.status).toBe("working");
    expect(created?.task.pollInterval).toBeGreaterThan(0);
    const last = messages.at(-1) as { type: string; result?: unknown };
    expect(last.type).toBe("result");
    expect(textOfV1(last.result)).toBe("report on tides");

    // The task is still there to read, completed, with the progress message it last had.
    const task = await client.experimental.tasks.getTask(created!.task.taskId);
    expect(task).toMatchObject({ taskId: created!.task.taskId, status: "completed", statusMessage: "Gathering sources" });
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks.map((t) => t.taskId)).toEqual([created!.task.taskId]);
  });

  it("cancelling the task aborts the call's signal, and the task reads cancelled", async () => {
    const { url, seen } = await start();
    const client = await agent(url, "task-agent", TASKS);
    const taskId = await createTask(client, "demo_forever");
    await until(() => seen.contexts.length === 1, 5000, "the call to start");
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe("cancelled");
    await until(() => seen.aborted.length === 1, 5000, "the call's signal to abort");
    expect(seen.contexts[0].signal?.aborted).toBe(true);
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe("cancelled");
    // An ended task cannot be cancelled again, and has no result to give.
    expect((await refusal(client.experimental.tasks.cancelTask(taskId))).code).toBe(-32602);
    expect((await refusal(client.experimental.tasks.getTaskResult(taskId, CreateTaskResultSchema.partial()))).message).toMatch(/cancelled/);
  });

  it("another session cannot read, wait on, cancel or list a task it did not create", async () => {
    const { url, seen } = await start();
    const owner = await agent(url, "task-agent", TASKS);
    const other = await agent(url, "task-agent", TASKS);
    const taskId = await createTask(owner, "demo_forever");
    const unknown = await refusal(other.experimental.tasks.getTask("gwt-AAAAAAAAAAAAAAAAAAAAAAAA"));
    for (const attempt of [
      other.experimental.tasks.getTask(taskId),
      other.experimental.tasks.cancelTask(taskId),
      other.experimental.tasks.getTaskResult(taskId, CreateTaskResultSchema.partial()),
    ]) {
      const error = await refusal(attempt);
      // Exactly what an id that never existed gets: nothing says the task is there.
      expect({ code: error.code, message: error.message }).toEqual({ code: -32602, message: unknown.message });
      expect(error.message).not.toContain(taskId);
    }
    expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
    expect((await owner.experimental.tasks.getTask(taskId)).status).toBe("working");
    expect(seen.aborted).toEqual([]);
  });

  it("a question inside the task goes to the agent on tasks/result when who answers says the agent", async () => {
    const { url } = await start({ elicitation: { default: "person", agents: { "answering-agent": "agent" } } });
    const asked: unknown[] = [];
    const client = await agent(url, "answering-agent", { ...TASKS, elicitation: { form: {} } }, (params) => {
      asked.push(params);
      return { action: "accept", content: { topic: "tides" } };
    });
    const messages = await streamed(client, "demo_clarify");
    expect(messages.some((m) => m.type === "taskStatus" && (m.task as { status: string }).status === "input_required")).toBe(true);
    const last = messages.at(-1) as { type: string; result?: unknown };
    expect(textOfV1(last.result)).toBe('clarified: {"action":"accept","content":{"topic":"tides"}}');
    // Sent on the task's stream, marked with the task it belongs to.
    const taskId = (messages[0].task as { taskId: string }).taskId;
    expect(asked).toEqual([expect.objectContaining({ message: "Which topic?", _meta: { "io.modelcontextprotocol/related-task": { taskId } } })]);
  });

  it("without that setting the question is the person's: the call gets no way to ask the agent", async () => {
    const { url, seen } = await start();
    const client = await agent(url, "task-agent", { ...TASKS, elicitation: { form: {} } }, () => ({ action: "decline" }));
    const messages = await streamed(client, "demo_clarify");
    expect(textOfV1((messages.at(-1) as { result?: unknown }).result)).toBe("asked the person");
    expect(seen.contexts[0].elicit).toBeUndefined();
  });

  it("a tool that does not run as a task is refused as one (-32601), and runs plainly", async () => {
    const { url } = await start();
    const client = await agent(url, "task-agent", TASKS);
    const error = await refusal(createTask(client, "demo_plain"));
    expect(error.code).toBe(-32601);
    expect(error.message).toMatch(/does not run as a task/);
    expect(textOfV1(await client.callTool({ name: "demo_plain", arguments: {} }))).toBe("plain");
  });

  it("holds the cap per session, dropping the oldest ended task to make room, and drops ended tasks after their ttl", async () => {
    const { url } = await start({ tasks: { perSession: 2, ttlMs: 60_000 } });
    const client = await agent(url, "task-agent", TASKS);
    const first = await createTask(client, "demo_forever");
    await createTask(client, "demo_forever");
    const full = await refusal(createTask(client, "demo_forever"));
    expect(full.message).toMatch(/MAX_AGENT_TASKS_PER_SESSION/);
    await client.experimental.tasks.cancelTask(first);
    await createTask(client, "demo_forever");
    expect((await refusal(client.experimental.tasks.getTask(first))).code).toBe(-32602);

    const short = await agent(url, "task-agent", TASKS);
    const quick = await short.request({ method: "tools/call", params: { name: "demo_research", arguments: {}, task: { ttl: 100 } } }, CreateTaskResultSchema);
    expect(quick.task.ttl).toBe(100);
    await until(async () => (await short.experimental.tasks.getTask(quick.task.taskId).catch(() => undefined))?.status === "completed", 5000, "the task to complete");
    await until(() => short.experimental.tasks.getTask(quick.task.taskId).then(() => false, (e: McpError) => e.code === -32602), 5000, "the ended task to be dropped");
  });
});

describe("an agent that did not declare tasks", () => {
  it("is offered a task-only tool without taskSupport and gets its result from a plain call", async () => {
    const { url, seen } = await start();
    const client = await agent(url, "plain-agent", {});
    const { tools } = await client.listTools();
    const research = tools.find((t) => t.name === "demo_research");
    expect(research).toMatchObject({ name: "demo_research", annotations: { readOnlyHint: true } });
    expect(research?.execution).toBeUndefined();
    // "optional" stays: a plain call of it is as good as a task, for any client.
    expect(tools.find((t) => t.name === "demo_clarify")?.execution).toEqual({ taskSupport: "optional" });
    expect(textOfV1(await client.callTool({ name: "demo_research", arguments: { topic: "waves" } }))).toBe("report on waves");
    expect(seen.contexts).toHaveLength(1);
  });

  it("the SDK v1 client itself refuses a plain call of a tool listed as task-only, which is why such an agent is not shown it so", async () => {
    const { url, seen } = await start();
    const client = await agent(url, "task-agent", TASKS);
    await expect(client.callTool({ name: "demo_research", arguments: {} })).rejects.toThrow(/requires task-based execution/);
    expect(seen.contexts).toEqual([]);
  });
});

describe("the tasks library (ext-tasks) over the SDK v2 client", () => {
  it("runs a task-only tool through the gateway's task and gets its result", async () => {
    const { url } = await start();
    const client = new V2Client({ name: "ext-tasks-agent", version: "1.0.0" }, { capabilities: { tasks: { list: {}, cancel: {} } } as never });
    await client.connect(new V2Transport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    clients.push(client);
    const { tools } = await client.listTools();
    const session = createTaskSessionFromClient(client, {
      endpointId: "toolnexus-gateway",
      tools: { currentTool: (name) => tools.filter((t) => t.name === name).map((t) => toolDeclarationFromMcpTool(t as never))[0] },
    });
    try {
      const execution = await session.callTool("demo_research", { topic: "currents" });
      const { outcome } = await execution.settle();
      expect(outcome).toMatchObject({ status: "completed", task: { taskId: expect.stringMatching(/^gwt-/), statusMessage: "Gathering sources" } });
      expect(textOfV1(resultFromTaskOutcome(outcome))).toBe("report on currents");
    } finally {
      await session.close();
    }
  });
});
