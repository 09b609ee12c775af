// tools/call and the task methods for a 2026-07-28 agent (one request, one server instance: the
// SDK's createMcpHandler builds it per request, modern-endpoint.ts). There is no connection to
// send the agent a request on, so:
//   - an agent that declared the `io.modelcontextprotocol/tasks` extension in this request's own
//     client capabilities, calling a tool whose server offers tasks, gets the gateway's task at
//     once (`resultType: "task"`); it polls tasks/get, answers the task's questions for it with
//     tasks/update (inputRequests by key) and may tasks/cancel. The store is agent-tasks.ts's, and
//     the task belongs to the agent's credential: a 2026-07-28 agent has no session, and the
//     credential is what every one of its requests proves (another credential is told -32602).
//   - any other call that may need the agent (it declared elicitation, sampling or roots, and
//     "who answers" lets it) runs as a pending call: when the server asks the agent something, the
//     agent is answered `resultType: "input_required"` with the questions and a requestState (the
//     pending call's id, of the agent's credential only); its retry with inputResponses answers
//     them and waits for the result or the next question. An agent that does not come back within
//     MODERN_INPUT_WAIT_MS has its call cancelled, which withdraws what it raised.
//   - the rest is a plain call, answered on this request.
// A task method from an agent that did not declare the extension is refused -32021 (the
// extension's MUST); a tools/call from one gets a plain result.
import { CLIENT_CAPABILITIES_META_KEY, MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, inputRequired, type CallToolResult, type RequestId, type Server } from "@modelcontextprotocol/server";
import { hasTaskClientCapabilityV2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import * as z from "zod/v4";
import type { McpSource } from "../mcp/types";
import type { AgentTask, AgentTasks } from "./agent-tasks";
import { taskSupportOf, type TaskCallParams } from "./agent-tasks-call";
import { applyInputResponses, modernCreateResult, modernDetailedTask, TASKS_EXTENSION } from "./agent-tasks-modern";
import { WAIT_TOOL } from "./long-waits";
import type { AgentOutbound } from "./outbound";
import { isPlainObject } from "../../shared/unknown-value";

/** How long a call waits for the agent to come back with the answers it was asked for. */
export const MODERN_INPUT_WAIT_MS = 10 * 60_000;

type Notify = (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;
type Send = (request: { method: string; params: Record<string, unknown> }, signal: AbortSignal) => Promise<Record<string, unknown>>;

/** What tool-server.ts's call takes (its CallOptions, as far as these paths use them). */
interface ModernCallOptions {
  signal?: AbortSignal;
  notify?: Notify;
  send?: Send;
  progress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** What the gateway shares across 2026-07-28 requests (mcp-sessions.ts). */
export interface ModernShared {
  /** The agents' tasks (the same store as the 2025-11-25 sessions', so the caps hold in all). */
  tasks: AgentTasks;
  /** Calls waiting on an agent's answers between its retries (their own store: not tasks an agent can list). */
  pending: AgentTasks;
  /** A pending call's deadline for the agent's retry, by its id. */
  waiting: Map<string, NodeJS.Timeout>;
  inputWaitMs: number;
}

export interface ModernParts {
  shared: ModernShared;
  /** Who the tasks and pending calls belong to: the request's credential. */
  owner: string;
}

export interface ModernCallParts extends ModernParts {
  server: Server;
  source: McpSource;
  outbound: AgentOutbound;
  call: (params: TaskCallParams, id: RequestId, options: ModernCallOptions) => Promise<CallToolResult>;
  /** True when a call may need the agent (it answers sampling, roots or elicitation). */
  needsAgent: () => boolean;
}

/** The owner a credential's tasks and pending calls are kept under (never a session id, which is a UUID). */
export function credentialOwner(credential: string): string {
  return `credential:${credential}`;
}

interface RequestContext {
  mcpReq: {
    id: RequestId;
    signal: AbortSignal;
    envelope?: Record<string, unknown>;
    inputResponses?: unknown;
    requestState?: () => unknown;
    notify: (notification: never) => Promise<void>;
  };
}

/** Whether this request's own client capabilities declare the tasks extension (not any earlier request's). */
export function declaresTaskExtension(ctx: unknown): boolean {
  const envelope = (ctx as Partial<RequestContext>).mcpReq?.envelope ?? {};
  return hasTaskClientCapabilityV2({ _meta: { [CLIENT_CAPABILITIES_META_KEY]: envelope[CLIENT_CAPABILITIES_META_KEY] } });
}

function missingExtension(): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } as never, `This request needs the ${TASKS_EXTENSION} extension in its client capabilities.`);
}

function notFound(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "Task not found");
}

const noNotify: Notify = () => Promise.resolve();

/**
 * Whether the tool's server offers tasks: a 2025-11-25 server by the tool's execution.taskSupport,
 * a 2026-07-28 one by declaring the extension (its tools list no taskSupport on that wire).
 */
function offersTasks(source: McpSource, tool: McpSource["tools"][number]): boolean {
  if (taskSupportOf(tool.definition) !== "forbidden") return true;
  const extensions = source.backends?.().find((b) => b.name === tool.server)?.capabilities()?.extensions;
  return isPlainObject(extensions) && extensions[TASKS_EXTENSION] !== undefined;
}

/** Starts the gateway's task for one call; throws the agent's JSON-RPC error at a cap. */
function startTask(parts: ModernCallParts, params: TaskCallParams): Record<string, unknown> {
  const { shared, owner, call, outbound } = parts;
  const started = shared.tasks.start(owner, (control) =>
    call(params, control.id, {
      signal: control.signal,
      notify: noNotify,
      progress: (progress) => {
        if (progress.message) control.status(outbound.text(progress.message));
      },
      send: (request, signal) => control.ask(request, signal),
    }),
  );
  if (typeof started === "string") throw new ProtocolError(ProtocolErrorCode.InvalidRequest, started);
  return modernCreateResult(started, shared.tasks.pollIntervalMs);
}

/** The pending call this retry names (its requestState), with the retry's answers given to it. */
function resumed(parts: ModernCallParts, state: string, responses: unknown): AgentTask {
  const { shared, owner } = parts;
  const pending = shared.pending.find(owner, state);
  // A call given up (the agent took too long, or went away) is gone for the agent as if it never was.
  if (!pending || pending.status === "cancelled") {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState: the call it names was given up (call again without it)");
  }
  clearTimeout(shared.waiting.get(pending.id));
  shared.waiting.delete(pending.id);
  applyInputResponses(pending, responses);
  return pending;
}

/** A new pending call: the questions it asks the agent wait on it until the agent's retry answers them. */
function startPending(parts: ModernCallParts, params: TaskCallParams, notifyOf: Map<string, Notify>): AgentTask {
  const { shared, owner, call } = parts;
  const started = shared.pending.start(owner, (control) =>
    call(params, control.id, {
      signal: control.signal,
      // Progress and log messages go out on whichever of the agent's requests is waiting for the call.
      notify: (notification) => notifyOf.get(control.id)?.(notification) ?? Promise.resolve(),
      send: (request, signal) => control.ask(request, signal),
    }),
  );
  if (typeof started === "string") throw new ProtocolError(ProtocolErrorCode.InvalidRequest, started);
  return started;
}

/** Waits on the pending call: its result, or the questions it has for the agent (input_required). */
async function follow(parts: ModernCallParts, pending: AgentTask, ctx: RequestContext, notifyOf: Map<string, Notify>): Promise<Record<string, unknown>> {
  const { shared } = parts;
  const signal = ctx.mcpReq.signal;
  notifyOf.set(pending.id, (notification) => ctx.mcpReq.notify(notification as never));
  try {
    for (;;) {
      if (pending.status === "completed" && pending.result) return pending.result;
      if (pending.status === "failed" || pending.status === "cancelled" || pending.status === "completed") {
        throw new ProtocolError(ProtocolErrorCode.InternalError, pending.statusMessage ?? `The call ${pending.status}.`);
      }
      if (pending.inputs.size > 0) {
        const inputRequests = Object.fromEntries([...pending.inputs.values()].map((input) => [input.key, { method: input.method, params: input.params }]));
        const timer = setTimeout(() => {
          shared.waiting.delete(pending.id);
          shared.pending.cancel(pending, "the agent did not answer the call's questions in time");
        }, shared.inputWaitMs);
        timer.unref();
        shared.waiting.set(pending.id, timer);
        return inputRequired({ inputRequests: inputRequests as never, requestState: pending.id }) as unknown as Record<string, unknown>;
      }
      if (signal.aborted) {
        // Nobody is waiting for the call any more: it is given up, as a plain call whose connection closed.
        shared.pending.cancel(pending, "the agent went away");
        throw signal.reason;
      }
      await shared.pending.nextChange(pending, signal);
    }
  } finally {
    notifyOf.delete(pending.id);
  }
}

/** tools/call on the 2026-07-28 wire. */
export function modernToolsCall(parts: ModernCallParts): (request: { params: Record<string, unknown> }, ctx: unknown) => Promise<Record<string, unknown>> {
  const notifyOf = new Map<string, Notify>();
  return async (request, context) => {
    const ctx = context as RequestContext;
    const { inputResponses: _responses, requestState: _state, ...params } = request.params as unknown as TaskCallParams & { inputResponses?: unknown; requestState?: unknown };
    const tool = parts.source.tools.find((t) => t.name === params.name);
    // The companion's own toolnexus_wait is no server's tool: it claims a parked call (long-waits-session.ts).
    if (!tool && params.name === WAIT_TOOL) {
      const notify: Notify = (notification) => ctx.mcpReq.notify(notification as never);
      return (await parts.call(params, ctx.mcpReq.id, { signal: ctx.mcpReq.signal, notify })) as unknown as Record<string, unknown>;
    }
    if (!tool) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, parts.outbound.text(`Unknown tool "${String(params.name)}": no connected server offers it (see tools/list).`));
    }
    const state = ctx.mcpReq.requestState?.();
    if (state === undefined && declaresTaskExtension(ctx) && offersTasks(parts.source, tool)) return startTask(parts, params);
    if (typeof state === "string") return follow(parts, resumed(parts, state, ctx.mcpReq.inputResponses), ctx, notifyOf);
    if (!parts.needsAgent()) {
      const notify: Notify = (notification) => ctx.mcpReq.notify(notification as never);
      return (await parts.call(params, ctx.mcpReq.id, { signal: ctx.mcpReq.signal, notify })) as unknown as Record<string, unknown>;
    }
    return follow(parts, startPending(parts, params, notifyOf), ctx, notifyOf);
  };
}

const TaskIdParams = z.looseObject({ taskId: z.string() });

/** tasks/get, tasks/update and tasks/cancel on the 2026-07-28 wire, for the credential's own tasks. */
export function registerModernTasks(server: Server, parts: ModernParts): void {
  const { shared, owner } = parts;
  const { tasks } = shared;
  const find = (id: string): AgentTask => {
    const task = tasks.find(owner, id);
    if (!task) throw notFound();
    return task;
  };
  type Handler = (params: { taskId: string; inputResponses?: unknown }, ctx: unknown) => Promise<unknown>;
  const handle = server.setRequestHandler.bind(server) as unknown as (method: string, schemas: { params: typeof TaskIdParams }, handler: Handler) => void;
  handle("tasks/get", { params: TaskIdParams }, async (params, ctx) => {
    if (!declaresTaskExtension(ctx)) throw missingExtension();
    return { ...modernDetailedTask(find(params.taskId), tasks.pollIntervalMs), resultType: "complete" };
  });
  handle("tasks/update", { params: TaskIdParams }, async (params, ctx) => {
    if (!declaresTaskExtension(ctx)) throw missingExtension();
    const task = find(params.taskId);
    // The SDK lifts `inputResponses` out of a 2026-07-28 request's params (its retry field has the same name).
    const responses = params.inputResponses ?? (ctx as Partial<RequestContext>).mcpReq?.inputResponses;
    applyInputResponses(task, responses);
    return { resultType: "complete" };
  });
  handle("tasks/cancel", { params: TaskIdParams }, async (params, ctx) => {
    if (!declaresTaskExtension(ctx)) throw missingExtension();
    // An ended task is acknowledged too: cancellation is a request, and the extension's ack is empty.
    tasks.cancel(find(params.taskId));
    return { resultType: "complete" };
  });
}
