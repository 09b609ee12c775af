// One MCP server per agent session: it lists the McpSource's tools under their uniform names and
// forwards each tools/call, carrying the agent's name so any question the call triggers names
// both the server that asks and the agent it asks for.
import { randomUUID } from "node:crypto";
import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import type { CallToolResult, RequestId } from "@modelcontextprotocol/server";
import { LinkedAbort } from "../base/linked-abort";
import { AgentGone } from "../inbox/agent-gone";
import { toToolOutput } from "../mcp/result";
import type { AgentRequest, ExecuteContext, McpSource, SourceEvent } from "../mcp/types";
import { levelRank, type Catalog } from "./catalog";
import type { AgentOutbound } from "./outbound";
import { registerSurface, relayError } from "./surface";
import type { AgentTasks } from "./agent-tasks";
import { agentDeclaresTasks, GATEWAY_TASKS_CAPABILITY, registerAgentTasks } from "./agent-tasks-wire";
import { toolsForAgent } from "./agent-tasks-call";
import { taskStarter } from "./agent-tasks-run";
import { OrderedSends, relayToAgent, type ProgressRelay } from "./heartbeat";
import { WAIT_TOOL } from "./long-waits";
import type { LongWaits } from "./long-waits-call";
import { companionTools, withLongWaits } from "./long-waits-session";
import { TASKS_EXTENSION } from "./agent-tasks-modern";
import { declaresTaskExtension, modernToolsCall, registerModernTasks, type ModernParts } from "./modern-calls";
import { errorMessage } from "../../shared/unknown-value";

/** Who answers a server's elicitation for an agent: its person in the companion, or the agent itself. */
export type WhoAnswers = "person" | "agent";

/** tools/call params as the agent sent them. */
export interface CallParams {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: { progressToken?: string | number };
}

export interface CallOptions {
  /** The agent's own cancel of this call. */
  signal?: AbortSignal;
  /** Sends a notification on the call's stream (progress, log messages); without it progress is not asked for. */
  notify?: (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;
  /** Sends a request to the agent on the call's stream (sampling, roots, elicitation). */
  send?: (request: { method: string; params: Record<string, unknown> }, signal: AbortSignal) => Promise<Record<string, unknown>>;
  /** Every progress of the call, whether or not the agent asked for progress (a task's statusMessage). */
  progress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** ExecuteContext.onquestion, beside the call's heartbeats (a long wait's: withLongWaits). */
  onquestion?: (open: boolean) => void;
}

export interface ToolServer {
  server: Server;
  /** Forwards one tools/call; `id` is the agent's request id (abortCall uses it). */
  call(params: CallParams, id: RequestId, options?: CallOptions): Promise<CallToolResult>;
  /**
   * A task-augmented tools/call (2025-11-25 `params.task`): starts the gateway's task for it and
   * returns the CreateTaskResult; throws the agent's JSON-RPC error. Absent without a task store.
   */
  startTask?(params: CallParams, ttl?: number): Record<string, unknown>;
  /** The agent's `clientInfo.name`, once it has initialized. */
  agent(): string | undefined;
  /** Aborts one in-flight call (its HTTP response went away, or the agent cancelled it). */
  abortCall(id: RequestId, reason?: string): void;
  /** Aborts every in-flight call (the session ended). */
  abortAll(): void;
  /**
   * False when a call may need the agent (it answers sampling, roots or elicitation): such calls
   * take the SDK's path, where the gateway can send it requests on the call's stream.
   */
  shortPath(): boolean;
  /** A server's notification, passed on when this agent should have it. */
  deliver(event: Extract<SourceEvent, { type: "notification" }>): void;
  /** The session ended: its subscriptions and log level are dropped. */
  dispose(): void;
}

export interface ToolServerOptions {
  source: McpSource;
  catalog: Catalog;
  /** Who answers elicitations for an agent (by its clientInfo.name). Default: the person. */
  whoAnswers?: (agent: string) => WhoAnswers;
  /** The agent the session's per-agent credential names: who calls, whatever clientInfo.name says. */
  identity?: string;
  version: string;
  log: (line: string) => void;
  /** What every message to the agent passes first: the app's egress, which scrubs known secrets. */
  outbound: AgentOutbound;
  /**
   * SSE polling (SEP-1699): a call on the SDK's path still running after this long has its event
   * stream closed once, after the priming event told the agent to come back (retry); the agent
   * reconnects with Last-Event-ID and gets the rest from the session's event store. Only for
   * agents that negotiated 2025-11-25 or later (earlier clients were never told to reconnect).
   * Unset: streams stay open (keep-alive comments), as before.
   */
  pollAfterMs?: number;
  /** The gateway's task store (agent-tasks.ts): with it, agents may run calls as tasks. */
  tasks?: AgentTasks;
  /** Long waits for agents that opted in (long-waits.ts); without it none does. */
  longWaits?: LongWaits;
  /** What authenticated the session (http/guard.ts): a parked call is claimed only under it. */
  credential?: string;
  /**
   * The server answers one 2026-07-28 request (modern-endpoint.ts) instead of a session: its
   * tools/call and task methods are modern-calls.ts's, and its tasks belong to the credential.
   */
  modern?: ModernParts;
}

const INSTRUCTIONS =
  "Tools, prompts and resources of the MCP servers configured in Toolnexus Companion; tools and prompts are named <server>_<name>. " +
  "A call may wait while the companion asks its person a question; it completes when they answer.";

function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** What one session's parts share: its server, its id, its calls in flight and its agent. */
interface SessionParts {
  options: ToolServerOptions;
  server: Server;
  session: string;
  calls: Map<RequestId, LinkedAbort>;
  agent: () => string | undefined;
  /** The session's log level admits this message (nothing before the agent sets one). */
  wantsLog: (params: Record<string, unknown>) => boolean;
}

/** What the agent said it can answer, and whether its person lets it answer elicitations. */
function agentAnswers(s: SessionParts): { sampling: boolean; roots: boolean; elicit: boolean } {
  const caps = s.server.getClientCapabilities() as Record<string, unknown> | undefined;
  const elicit = caps?.elicitation !== undefined && (s.options.whoAnswers?.(s.agent() ?? "agent") ?? "person") === "agent";
  return { sampling: caps?.sampling !== undefined, roots: caps?.roots !== undefined, elicit };
}

/** The hooks a call carries to its server: requests the agent answers on the call's stream, each relayed through the outbound. */
function hooks(s: SessionParts, agentSend: CallOptions["send"]): Pick<ExecuteContext, "sampling" | "roots" | "elicit"> {
  if (!agentSend) return {};
  const send: NonNullable<CallOptions["send"]> = (request, signal) => agentSend(s.options.outbound.relay(request), signal);
  const can = agentAnswers(s);
  const via = (method: string): AgentRequest => (params, signal) => send({ method, params }, signal);
  return {
    ...(can.sampling ? { sampling: via("sampling/createMessage") } : {}),
    ...(can.roots ? { roots: via("roots/list") } : {}),
    ...(can.elicit
      ? {
          elicit: (params: Record<string, unknown>, signal: AbortSignal) => {
            // A URL elicitation goes to the agent only if it said it handles those.
            const caps = s.server.getClientCapabilities()?.elicitation as Record<string, unknown> | undefined;
            if (params.mode === "url" && !caps?.url) return Promise.reject(new Error("the agent does not handle URL elicitations"));
            return send({ method: "elicitation/create", params }, signal);
          },
        }
      : {}),
  };
}

/**
 * Each tool as its server listed it, only renamed: hosts and approval rules read annotations,
 * outputSchema, execution, icons and _meta (MCP Apps' _meta.ui) as the server meant them.
 */
function listedTools(source: McpSource) {
  return source.tools.map((tool) =>
    tool.definition
      ? ({ ...tool.definition, name: tool.name } as never)
      : { name: tool.name, ...(tool.title ? { title: tool.title } : {}), description: tool.description, inputSchema: { type: "object" as const, ...tool.inputSchema } },
  );
}

/**
 * One forwarded tools/call. The agent's cancel (`signal`) and a dropped connection or ended
 * session (abortCall/abortAll) both abort it, which withdraws any question it raised. What it
 * sends the agent (progress, log messages, the result, the failure) passes the outbound. While a
 * question for the person is open, a call with a progress token gets heartbeats (heartbeat.ts).
 */
function toolCall(s: SessionParts): ToolServer["call"] {
  const { source, log, outbound } = s.options;
  const { calls, session, agent, wantsLog } = s;
  return async function call(params: CallParams, id: RequestId, options: CallOptions = {}): Promise<CallToolResult> {
    const { name, arguments: args } = params;
    const tool = source.tools.find((t) => t.name === name);
    if (!tool) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, outbound.text(`Unknown tool "${name}": no connected server offers it (see tools/list).`));
    }
    // A plain listener, not AbortSignal.any: that costs tens of microseconds per call in Node 20.
    const abort = new LinkedAbort([options.signal]);
    calls.set(id, abort);
    const signal = abort.signal;
    const progressToken = params._meta?.progressToken;
    const agentNotify = options.notify;
    // Progress and logs go out in order and before the result (heartbeat.ts OrderedSends).
    const sends = agentNotify && new OrderedSends((notification) => agentNotify(outbound.relay(notification)));
    const relay = relayToAgent(progressToken, sends);
    // Every progress also reaches options.progress (a gateway task's statusMessage), asked for or not.
    const onprogress =
      !relay && !options.progress
        ? undefined
        : (progress: { progress: number; total?: number; message?: string }) => {
            options.progress?.(progress);
            relay?.progress(progress);
          };
    const onquestion = questionHook(relay, options.onquestion);
    try {
      // No timeout here: the call lasts as long as the server (and the person it asks) needs.
      const onlog = sends
        ? (log: Record<string, unknown>) => {
            if (wantsLog(log)) sends.send({ method: "notifications/message", params: log });
          }
        : undefined;
      const result = await tool.execute(args ?? {}, { signal, agent: agent() ?? "agent", session, onprogress, onlog, onquestion, ...hooks(s, options.send) });
      await sends?.done();
      // A server may echo our request headers back in its answer; the agent never gets them.
      if (Array.isArray(result.content)) return outbound.relay(result);
      // A raw call path passes a result on as the server wrote it, content or not: its text then.
      const out = toToolOutput(result);
      return { content: [{ type: "text", text: outbound.text(out.output) }], isError: out.isError };
    } catch (error) {
      // An aborted call ends as it was aborted; a server's error among those is relayed scrubbed, as every error an agent may read.
      if (signal.aborted) throw error instanceof ProtocolError ? relayError(error, outbound) : error;
      const message = outbound.text(errorMessage(error));
      log(`gateway: ${name} failed for ${agent() ?? "agent"}: ${message}`);
      return failure(`The companion could not run ${name}: ${message}`);
    } finally {
      relay?.stop();
      if (calls.get(id) === abort) calls.delete(id);
      // The call has settled and nobody can abort it any more: an unaborted signal is reused.
      abort.release();
    }
  };
}

/** The call's question hook: its heartbeats', and the caller's own (a long wait's). */
function questionHook(relay: ProgressRelay | undefined, own: ((open: boolean) => void) | undefined): ((open: boolean) => void) | undefined {
  if (!relay || !own) return relay?.question ?? own;
  return (open) => {
    relay.question(open);
    own(open);
  };
}

/** Closes the call's stream once after pollAfterMs, when the agent was told it may poll; returns the undo. */
function pollLater(s: SessionParts, closeSSE: (() => void) | undefined): (() => void) | undefined {
  const after = s.options.pollAfterMs;
  const version = s.server.getNegotiatedProtocolVersion();
  if (after === undefined || !closeSSE || !version || version < "2025-11-25") return undefined;
  const timer = setTimeout(closeSSE, after);
  return () => clearTimeout(timer);
}

/** A server's notification, passed on (through the outbound) when this session should have it. */
function deliverer(s: SessionParts, surface: Record<string, unknown>): ToolServer["deliver"] {
  const { catalog, outbound } = s.options;
  const send = (notification: { method: string; params?: Record<string, unknown> }) =>
    void s.server.notification(outbound.relay(notification) as Parameters<Server["notification"]>[0]).catch(() => {});
  return (event) => {
    const { method, params } = event;
    if (method === "notifications/resources/list_changed") {
      if (surface.resources) send({ method });
    } else if (method === "notifications/prompts/list_changed") {
      if (surface.prompts) send({ method });
    } else if (method === "notifications/message") {
      if (surface.logging && s.wantsLog(params)) send({ method, params });
    } else if (method === "notifications/resources/updated") {
      const subscribed = typeof params.uri === "string" ? catalog.subscribers(event.server, params.uri) : undefined;
      if (subscribed?.sessions.has(s.session)) send({ method, params: { ...params, uri: subscribed.uri } });
    }
  };
}

/** The session's part in the gateway's tasks (agent-tasks*.ts): the task methods, and startTask. */
function agentTasks(s: SessionParts, call: ToolServer["call"]): Pick<ToolServer, "startTask"> {
  const { tasks, source, outbound } = s.options;
  if (!tasks) return {};
  registerAgentTasks(s.server, tasks, s.session);
  const notify = (notification: { method: string; params: Record<string, unknown> }) =>
    s.server.notification(outbound.relay(notification) as Parameters<Server["notification"]>[0]).catch(() => {});
  return { startTask: taskStarter({ tasks, owner: s.session, source, outbound, call, notify }) };
}

/** What the gateway declares about tasks: 2025-11-25's capability on a session, the extension on the 2026-07-28 wire. */
function tasksCapability(options: ToolServerOptions): Record<string, unknown> {
  if (!options.tasks) return {};
  return options.modern ? { extensions: { [TASKS_EXTENSION]: {} } } : { tasks: GATEWAY_TASKS_CAPABILITY };
}

/** A session's tools/call: requests to the agent go out on the call's own stream. */
function registerSessionCall(s: SessionParts, call: ToolServer["call"]): void {
  // The agent's notifications/cancelled aborts ctx.mcpReq.signal.
  s.server.setRequestHandler("tools/call", async (request, ctx) => {
    const stopPolling = pollLater(s, ctx.http?.closeSSE);
    try {
      return await call(request.params, ctx.mcpReq.id, {
        signal: ctx.mcpReq.signal,
        notify: (notification) => ctx.mcpReq.notify(notification as Parameters<typeof ctx.mcpReq.notify>[0]),
        send: (request, signal) => ctx.mcpReq.send(request as never, { signal, timeout: 3_600_000 }) as Promise<Record<string, unknown>>,
      });
    } finally {
      stopPolling?.();
    }
  });
}

/** One 2026-07-28 request's tools/call and task methods (modern-calls.ts). */
function registerModernCalls(s: SessionParts, modern: ModernParts, call: ToolServer["call"]): void {
  const { source, outbound } = s.options;
  const handler = modernToolsCall({ ...modern, server: s.server, source, outbound, call, needsAgent: () => {
    const can = agentAnswers(s);
    return can.sampling || can.roots || can.elicit;
  } });
  s.server.setRequestHandler("tools/call", handler as never);
  if (s.options.tasks) registerModernTasks(s.server, modern);
}

export function createToolServer(options: ToolServerOptions): ToolServer {
  const { source, catalog, outbound } = options;
  // The union of what the servers offer now; a server connecting later adds to an agent's view
  // only from its next session (capabilities are fixed at initialize).
  const surface = catalog.capabilities();
  // The low-level Server (not McpServer): the tool set belongs to the source and changes with it,
  // and results must pass through untouched (structuredContent, isError, content as sent).
  const server = new Server(
    { name: "toolnexus-companion", version: options.version },
    { capabilities: { tools: { listChanged: true }, ...surface, ...tasksCapability(options) } as never, instructions: INSTRUCTIONS },
  );
  const session = randomUUID();
  const s: SessionParts = {
    options,
    server,
    session,
    calls: new Map(),
    agent: () => options.identity ?? server.getClientVersion()?.name,
    wantsLog(params) {
      const level = catalog.level(session);
      return level !== undefined && levelRank(params.level) >= levelRank(level);
    },
  };
  registerSurface(server, catalog, surface, session, outbound);
  const call = withLongWaits(s, toolCall(s));

  // Tool descriptions are a server's text too: the list passes the outbound like every result.
  server.setRequestHandler("tools/list", async (_request, ctx) => {
    // The companion's own tool wins its name over a server's tool of the same name (a server called "toolnexus").
    const ours = companionTools(s);
    const declared = options.modern ? declaresTaskExtension(ctx) : agentDeclaresTasks(server);
    const theirs = toolsForAgent(listedTools(source), declared).filter((t) => ours.length === 0 || (t as { name: string }).name !== WAIT_TOOL);
    return outbound.relay({ tools: [...theirs, ...ours] });
  });
  const modern = options.modern;
  if (modern) registerModernCalls(s, modern, call);
  else registerSessionCall(s, call);

  const { calls, agent } = s;
  return {
    server,
    agent,
    call,
    ...(modern ? {} : agentTasks(s, call)),
    abortCall(id, reason) {
      // Without a reason the connection carrying the call closed: the agent is gone.
      calls.get(id)?.abort(reason === undefined ? new AgentGone(agent() ?? "the agent") : new Error(reason));
    },
    abortAll() {
      for (const abort of calls.values()) abort.abort(new AgentGone(agent() ?? "the agent"));
      calls.clear();
    },
    shortPath() {
      const can = agentAnswers(s);
      return !can.sampling && !can.roots && !can.elicit;
    },
    deliver: deliverer(s, surface),
    dispose() {
      catalog.dropSession(session);
      options.tasks?.dropOwner(session);
    },
  };
}
