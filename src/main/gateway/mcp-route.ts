// The gateway's /mcp endpoint. 2025-11-25 (and earlier) agents: stateful streamable HTTP, one
// session (and one MCP server) per agent connection, so the server can reach the agent (progress,
// list_changed) while a call is open. 2026-07-28 agents: no session, one server per request
// (modern-endpoint.ts), chosen by the SDK's own classification of each POST. Mounted on the app's loopback listener, which checks Host, Origin and the bearer token
// before a request gets here. A plain tools/call takes the short path in direct-call.ts (a JSON
// answer); everything else goes through the SDK's transport. The sessions themselves are
// mcp-sessions.ts's.
import type { IncomingMessage, ServerResponse } from "node:http";
import { SUPPORTED_PROTOCOL_VERSIONS, type RequestId } from "@modelcontextprotocol/server";
import type { McpSource } from "../mcp/types";
import { readBody } from "../http/body";
import { jsonBoundsProblem } from "../base/json-bounds";
import type { Route, RouteAuth } from "../http/listener";
import type { Refusal } from "../http/replies";
import { CONNECTION_REFUSED, INVALID_REQUEST, PARSE_ERROR, SESSION_NOT_FOUND, sendJsonRpcError } from "./jsonrpc-errors";
import type { WhoAnswers } from "./tool-server";
import { createSessions } from "./mcp-sessions";
import type { AgentOutbound } from "./outbound";
import { boundStreamWrites } from "./stream-bound";
import { cancelledIds, directCall, serveDirectCall } from "./direct-call";
import { gatewayChallenge, refusalMessage } from "./token-refusal";
import { PERSON_ANSWERS, whoAnswersFor, type WhoAnswersSetting } from "./who-answers";
import { longWaitDeadline, NO_LONG_WAITS, type LongWaitsSetting } from "../mcp/config/long-waits";
import { WaitStore } from "./long-waits-store";
import type { LongWaits } from "./long-waits-call";
import { isPlainObject } from "../../shared/unknown-value";
import { serveTaskCall, taskCallOf } from "./agent-tasks-call";
import type { AgentTasksOptions } from "./agent-tasks";

export interface GatewayOptions {
  source: McpSource;
  /** What every message to an agent passes first (the app's egress scrubs known secrets; app/egress.ts). */
  outbound: AgentOutbound;
  log?: (line: string) => void;
  /** Reported to agents as the server version. */
  version?: string;
  /**
   * A session with no open stream, no call in flight and no request for this long is ended: most
   * agents just drop the connection instead of sending DELETE. Default MCP_SESSION_IDLE_MS while
   * few sessions are open, falling to `minIdleSessionMs` as they near a cap.
   */
  idleSessionMs?: number;
  /** The idle deadline at a cap; default MCP_SESSION_IDLE_MIN_MS. */
  minIdleSessionMs?: number;
  /** Open sessions per credential and in all; defaults MAX_MCP_SESSIONS_PER_CREDENTIAL and _TOTAL. */
  maxSessions?: { perCredential?: number; total?: number };
  /** Bytes an event stream may hold for an agent that does not read it; default MAX_PEER_QUEUED_BYTES. */
  maxQueuedBytes?: number;
  /**
   * Who answers a server's elicitation during an agent's call: "person" (the companion asks its
   * person; the default) or "agent" (the agent answers when it advertises elicitation; if it
   * cannot, the person is asked). Per agent by its clientInfo.name, read at each call so a
   * changed setting applies at once. A fixed setting is looked up as the config's is
   * (who-answers.ts): an agent is named by its own entry, never by an inherited property.
   */
  elicitation?: Partial<WhoAnswersSetting> | ((agent: string) => WhoAnswers);
  /** SSE polling of long calls (tool-server.ts pollAfterMs); unset, streams stay open. */
  pollAfterMs?: number;
  /**
   * How long a 2026-07-28 agent's call waits for the agent to retry with the answers an
   * input_required result asked it for, before the call is cancelled; default MODERN_INPUT_WAIT_MS.
   */
  modernInputWaitMs?: number;
  /** Agents' tasks: per session and in all (defaults MAX_AGENT_TASKS_PER_SESSION, _TOTAL) and how long ended ones are kept. */
  tasks?: AgentTasksOptions;
  /**
   * Which agents wait long for their person (long-waits.ts): a fixed setting, or one read at each
   * call so a changed config applies at once. Unset: none does.
   */
  longWaits?: Partial<LongWaitsSetting> | (() => LongWaitsSetting);
}

export interface GatewayRoute extends Route {
  /** Open agent sessions, for the settings view and tests. */
  sessions(): Array<{ id: string; agent?: string; credential: string; idle: boolean }>;
  /** Ends every session (app quit); in-flight calls are aborted, which withdraws their questions. */
  close(): Promise<void>;
}

const SESSION_HEADER = "mcp-session-id";

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => isPlainObject(m) && m.method === "initialize");
}

/** The ids of the requests (not notifications or responses) a POST carries. */
function requestIds(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? body : [body];
  const ids: RequestId[] = [];
  for (const m of messages) {
    if (!isPlainObject(m)) continue;
    const { id, method } = m;
    if (typeof method === "string" && (typeof id === "string" || typeof id === "number")) ids.push(id);
  }
  return ids;
}

/**
 * The SDK's transport primes an event stream for resumption (SEP-1699) by the request's
 * MCP-Protocol-Version header. A session that negotiated 2025-11-25 or later can poll whatever
 * older supported revision a request's header names (clients send stale ones, the conformance
 * suite among them): the session's version is what the agent agreed to, so it governs.
 */
function sessionVersionGoverns(req: IncomingMessage, negotiated: string | undefined): void {
  const header = req.headers["mcp-protocol-version"];
  if (negotiated && negotiated >= "2025-11-25" && typeof header === "string" && header < negotiated && SUPPORTED_PROTOCOL_VERSIONS.includes(header)) {
    req.headers["mcp-protocol-version"] = negotiated;
  }
}

/**
 * A POST's body as a JSON-RPC message or batch; undefined once the error is sent (not JSON, not a
 * message, an empty batch, past the bounds).
 */
async function readMessage(req: IncomingMessage, res: ServerResponse): Promise<object | undefined> {
  // The listener's reader stops at 4 MiB (413); parsing here gives agents a JSON-RPC parse error.
  const raw = await readBody(req);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch (error) {
    sendJsonRpcError(res, 400, PARSE_ERROR, `Parse error: the body is not valid JSON (${(error as Error).message}).`);
    return undefined;
  }
  if (typeof body !== "object" || body === null) {
    sendJsonRpcError(res, 400, INVALID_REQUEST, "Invalid Request: the body must be a JSON-RPC message or a batch of them.");
    return undefined;
  }
  // JSON-RPC 2.0, section 6 (batch): an empty batch is answered with a single Invalid Request error.
  if (Array.isArray(body) && body.length === 0) {
    sendJsonRpcError(res, 400, INVALID_REQUEST, "Invalid Request: the batch is empty.");
    return undefined;
  }
  // Checked before the SDK, a session or a server sees it: too deep to serialise back, or too
  // many values to walk, is refused here with the reason.
  const bounds = jsonBoundsProblem(body);
  if (bounds) {
    sendJsonRpcError(res, 400, INVALID_REQUEST, `Invalid Request: the message is refused: ${bounds}.`);
    return undefined;
  }
  return body;
}

export function createGatewayRoute(options: GatewayOptions): GatewayRoute {
  const log = options.log ?? (() => {});
  const elicitation = options.elicitation;
  const fixed: WhoAnswersSetting = typeof elicitation === "function" ? PERSON_ANSWERS : { default: elicitation?.default ?? "person", agents: elicitation?.agents ?? {} };
  const whoAnswers = typeof elicitation === "function" ? elicitation : (agent: string): WhoAnswers => whoAnswersFor(fixed, agent);
  const maxQueuedBytes = options.maxQueuedBytes;
  const longWaits = longWaitsOf(options.longWaits, log);
  const sessions = createSessions({
    longWaits,
    source: options.source,
    log,
    version: options.version ?? "0.1.0",
    whoAnswers,
    outbound: options.outbound,
    pollAfterMs: options.pollAfterMs,
    tasks: options.tasks,
    maxQueuedBytes,
    inputWaitMs: options.modernInputWaitMs,
    caps: { ...options.maxSessions, maxIdleMs: options.idleSessionMs, minIdleMs: options.minIdleSessionMs },
  });

  async function handle(req: IncomingMessage, res: ServerResponse, auth: RouteAuth): Promise<void> {
    const method = req.method ?? "GET";
    if (method !== "POST" && method !== "GET" && method !== "DELETE") {
      sendJsonRpcError(res, 405, CONNECTION_REFUSED, `Method ${method} is not allowed on /mcp; use POST, GET or DELETE.`, { allow: "POST, GET, DELETE" });
      return;
    }
    const sessionId = req.headers[SESSION_HEADER];
    // A session answers only the credential that opened it: another one is told it does not exist.
    const session = sessions.find(typeof sessionId === "string" ? sessionId : undefined, auth.credential);

    if (method !== "POST") {
      if (typeof sessionId !== "string") {
        sendJsonRpcError(res, 400, CONNECTION_REFUSED, "Bad Request: an Mcp-Session-Id header is required; initialize first with a POST.");
      } else if (!session) {
        sendJsonRpcError(res, 404, SESSION_NOT_FOUND, "Session not found: it ended or the companion restarted; initialize again.");
      } else {
        sessions.track(session, res);
        boundStreamWrites(res, log, maxQueuedBytes);
        await session.transport.handleRequest(req, res);
      }
      return;
    }

    const body = await readMessage(req, res);
    if (body === undefined) return;
    // A 2026-07-28 request (server/discover, or any request with its per-request `_meta`) has no session.
    if (await sessions.modern.claims(req, body)) {
      await sessions.modern.handle(req, res, body, auth);
      return;
    }

    if (typeof sessionId !== "string") {
      if (!isInitialize(body)) {
        sendJsonRpcError(res, 400, CONNECTION_REFUSED, "Bad Request: an Mcp-Session-Id header is required; initialize first.");
        return;
      }
      await sessions.open(req, res, body, auth);
      return;
    }
    if (!session) {
      sendJsonRpcError(res, 404, SESSION_NOT_FOUND, "Session not found: it ended or the companion restarted; initialize again.");
      return;
    }
    // A tools/call answers on this response (JSON or SSE). If the agent drops the connection before
    // the answer is written, nobody can receive it: abort the call, which withdraws its question.
    sessions.track(session, res);
    const ids = requestIds(body);
    if (ids.length > 0) {
      res.once("close", () => {
        if (!res.writableFinished) for (const id of ids) session.tools.abortCall(id);
      });
    }
    // The agent's cancel of a call on the short path: the SDK never saw that call, so act here
    // (the SDK still gets the notification and handles its own calls).
    for (const id of cancelledIds(body)) session.tools.abortCall(id, "the agent cancelled the call");
    // A task asked for on tools/call is answered at once with the gateway's own task (agent-tasks-call.ts).
    const startTask = session.tools.startTask;
    const taskCall = startTask ? taskCallOf(req, body) : undefined;
    if (startTask && taskCall) {
      serveTaskCall(() => startTask(taskCall.params, taskCall.ttl), taskCall, sessionId, res);
      return;
    }
    const call = session.tools.shortPath() ? directCall(req, body) : undefined;
    if (call) {
      await serveDirectCall(session.tools, call, sessionId, res);
      return;
    }
    sessionVersionGoverns(req, session.tools.server.getNegotiatedProtocolVersion());
    boundStreamWrites(res, log, maxQueuedBytes);
    await session.transport.handleRequest(req, res, body);
  }

  return {
    prefix: "/mcp",
    handle,
    refuse(res: ServerResponse, refusal: Refusal) {
      const headers: Record<string, string> = refusal.status === 401 ? { "www-authenticate": gatewayChallenge() } : {};
      sendJsonRpcError(res, refusal.status, CONNECTION_REFUSED, refusalMessage(refusal.status, refusal.message), headers);
    },
    sessions: () => sessions.list(),
    close: async () => {
      longWaits.store.close();
      await sessions.close();
    },
  };
}

/** The gateway's long waits: one store of parked calls for every session, and the setting as given. */
function longWaitsOf(given: GatewayOptions["longWaits"], log: (line: string) => void): LongWaits {
  const fixed: LongWaitsSetting = typeof given === "function" || given === undefined ? NO_LONG_WAITS : { ...NO_LONG_WAITS, ...given };
  const setting = typeof given === "function" ? given : () => fixed;
  return { store: new WaitStore(), deadline: (agent) => longWaitDeadline(setting(), agent), log };
}
