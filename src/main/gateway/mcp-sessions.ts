// The gateway's /mcp sessions (mcp-route.ts): one MCP server (tool-server.ts) and one SDK
// transport per agent connection, capped per credential and in all (session-caps.ts), each told
// when the tool set, resources or prompts change.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { McpSource } from "../mcp/types";
import type { RouteAuth } from "../http/listener";
import { CONNECTION_REFUSED, sendJsonRpcError } from "./jsonrpc-errors";
import { createToolServer, type ToolServer, type ToolServerOptions, type WhoAnswers } from "./tool-server";
import type { AgentOutbound } from "./outbound";
import { Catalog } from "./catalog";
import { EventBudget, SessionEvents } from "./event-store";
import { SessionCaps, type SessionCapsOptions } from "./session-caps";
import { AgentTasks, type AgentTasksOptions } from "./agent-tasks";
import type { LongWaits } from "./long-waits-call";
import { createModernEndpoint, type ModernEndpoint } from "./modern-endpoint";
import { credentialOwner, MODERN_INPUT_WAIT_MS, type ModernShared } from "./modern-calls";

export interface SessionsOptions {
  source: McpSource;
  log: (line: string) => void;
  version: string;
  whoAnswers: (agent: string) => WhoAnswers;
  outbound: AgentOutbound;
  pollAfterMs?: number;
  caps: SessionCapsOptions;
  /** The caps and ttl of agents' tasks (agent-tasks.ts). */
  tasks?: AgentTasksOptions;
  /** Long waits (long-waits.ts): parked calls outlive the session that made them. */
  longWaits?: LongWaits;
  /** Bytes an event stream may hold for an agent that does not read it (stream-bound.ts). */
  maxQueuedBytes?: number;
  /** How long a 2026-07-28 call waits for the agent's retry with its answers; default MODERN_INPUT_WAIT_MS. */
  inputWaitMs?: number;
}

/** The `retry` an agent is told on each event stream: how soon to reconnect when it closes (SEP-1699). */
const RETRY_MS = 1000;

export interface Session {
  transport: NodeStreamableHTTPServerTransport;
  tools: ToolServer;
  /** What authenticated the agent that opened it (guard.ts); sessions are counted per credential. */
  credential: string;
  /** Responses still open (the GET stream, calls answering over SSE). */
  open: number;
  lastSeen: number;
}

export interface McpSessions {
  /** The session `id` names, if `credential` opened it: another credential is told it does not exist. */
  find(id: string | undefined, credential: string): Session | undefined;
  /** An initialize without a session: a new session answers it, or 429 past the caps. */
  open(req: IncomingMessage, res: ServerResponse, body: unknown, auth: RouteAuth): Promise<void>;
  /** Counts the response as open until it closes, so a live agent is never swept. */
  track(session: Session, res: ServerResponse): void;
  list(): Array<{ id: string; agent?: string; credential: string; idle: boolean }>;
  /** 2026-07-28 requests (modern-endpoint.ts): no session, the same tools, caps and task store. */
  modern: ModernEndpoint;
  /** Ends every session; in-flight calls are aborted, which withdraws their questions. */
  close(): Promise<void>;
}

/**
 * Tells every agent when the tool set changes: a server's own list_changed, or a server
 * connecting, failing or being disabled (its tools appear or vanish). Returns the unsubscribe.
 */
function relayChanges(source: McpSource, toolServers: () => Iterable<ToolServer>, modern: ModernEndpoint): () => void {
  let signature = toolSignature();
  function toolSignature(): string {
    return source.tools.map((t) => t.name).join("\n");
  }
  return source.on((event) => {
    if (event.type === "notification") {
      for (const tools of toolServers()) tools.deliver(event);
      if (event.method === "notifications/resources/list_changed") modern.changed("resources");
      if (event.method === "notifications/prompts/list_changed") modern.changed("prompts");
      return;
    }
    if (event.type === "status") {
      // A server connecting or going away adds or removes its resources and prompts too.
      for (const tools of toolServers()) {
        for (const method of ["notifications/resources/list_changed", "notifications/prompts/list_changed"]) {
          tools.deliver({ type: "notification", server: event.status.name, method, params: {} });
        }
      }
      modern.changed("resources");
      modern.changed("prompts");
    }
    const next = toolSignature();
    if (event.type !== "tools-changed" && next === signature) return;
    signature = next;
    for (const tools of toolServers()) {
      void tools.server.sendToolListChanged().catch(() => {});
    }
    modern.changed("tools");
  });
}

/** One agent's tool server, a session's or a 2026-07-28 request's: long waits are claimed under its credential. */
function toolServerFor(options: SessionsOptions, catalog: Catalog, tasks: AgentTasks, auth: RouteAuth, extra: Pick<ToolServerOptions, "modern" | "pollAfterMs">): ToolServer {
  const { source, log, version, whoAnswers, outbound, longWaits } = options;
  return createToolServer({
    source,
    catalog,
    tasks,
    whoAnswers,
    version,
    log,
    outbound,
    credential: auth.credential,
    ...extra,
    ...(longWaits ? { longWaits } : {}),
    ...(auth.agent !== undefined ? { identity: auth.agent } : {}),
  });
}

/**
 * The 2026-07-28 side: one server per request, over the sessions' catalog and task store; its
 * tasks and pending calls belong to the request's credential (modern-calls.ts).
 */
function modernEndpoint(options: SessionsOptions, catalog: Catalog, tasks: AgentTasks, caps: { perCredential: number; total: number }) {
  const shared: ModernShared = { tasks, pending: new AgentTasks(options.tasks), waiting: new Map(), inputWaitMs: options.inputWaitMs ?? MODERN_INPUT_WAIT_MS };
  const { log } = options;
  const endpoint = createModernEndpoint({
    log,
    perCredential: caps.perCredential,
    total: caps.total,
    maxQueuedBytes: options.maxQueuedBytes,
    serverFor(auth) {
      const modern = { shared, owner: credentialOwner(auth.credential) };
      const tools = toolServerFor(options, catalog, tasks, auth, { modern });
      return { server: tools.server, dispose: () => tools.dispose() };
    },
  });
  return {
    endpoint,
    close() {
      for (const timer of shared.waiting.values()) clearTimeout(timer);
      shared.waiting.clear();
      shared.pending.close();
    },
  };
}

export function createSessions(options: SessionsOptions): McpSessions {
  const { source, log } = options;
  const sessions = new Map<string, Session>();
  const catalog = new Catalog(() => source.backends?.() ?? [], log);
  const budget = new EventBudget();
  const tasks = new AgentTasks(options.tasks);

  function end(id: string, session: Session, why: string): void {
    if (!sessions.delete(id)) return;
    log(`gateway: ${session.tools.agent() ?? "an agent"}'s session ${id.slice(0, 8)} ended: ${why}`);
    session.tools.abortAll();
    void session.transport.close().catch(() => {});
  }
  const caps = new SessionCaps(sessions, end, options.caps);

  /** Counts the response as open until it closes, so a live agent is never swept. */
  function track(session: Session, res: ServerResponse): void {
    session.lastSeen = Date.now();
    session.open += 1;
    res.once("close", () => {
      session.open -= 1;
      session.lastSeen = Date.now();
    });
  }

  const modern = modernEndpoint(options, catalog, tasks, caps);
  const unsubscribe = relayChanges(source, function* () {
    for (const session of sessions.values()) yield session.tools;
  }, modern.endpoint);

  async function openSession(req: IncomingMessage, res: ServerResponse, body: unknown, auth: RouteAuth): Promise<void> {
    const { credential } = auth;
    const refusal = caps.reserve(credential);
    if (refusal) {
      log(`gateway: a new session was refused: ${refusal}`);
      sendJsonRpcError(res, 429, CONNECTION_REFUSED, refusal, { "retry-after": String(caps.retryAfterSeconds()) });
      return;
    }
    // The reservation ends when the session is in the map (it then counts itself) or the initialize fails.
    let reserved = true;
    const release = () => {
      if (reserved) caps.opened(credential);
      reserved = false;
    };
    try {
      await startSession(req, res, body, auth, release);
    } finally {
      release();
    }
  }

  async function startSession(req: IncomingMessage, res: ServerResponse, body: unknown, auth: RouteAuth, registered: () => void): Promise<void> {
    const { credential } = auth;
    const tools = toolServerFor(options, catalog, tasks, auth, { pollAfterMs: options.pollAfterMs });
    // Event ids, a priming event and `retry` on every stream, and Last-Event-ID honoured on reconnect.
    const events = new SessionEvents(budget);
    let id: string | undefined;
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: events,
      retryInterval: RETRY_MS,
      onsessioninitialized: (sessionId) => {
        id = sessionId;
        sessions.set(sessionId, { transport, tools, credential, open: 0, lastSeen: Date.now() });
        registered();
        log(`gateway: ${tools.agent() ?? "an agent"} connected (session ${sessionId.slice(0, 8)})`);
      },
    });
    transport.onclose = () => {
      tools.abortAll();
      tools.dispose();
      events.dispose();
      if (id !== undefined && sessions.delete(id)) log(`gateway: ${tools.agent() ?? "an agent"} disconnected (session ${id.slice(0, 8)})`);
    };
    try {
      await tools.server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      // A failed initialize never got a session; drop the server and the events it was built for.
      if (id === undefined) {
        events.dispose();
        await tools.server.close().catch(() => {});
      }
    }
  }

  return {
    find(id, credential) {
      const found = id !== undefined ? sessions.get(id) : undefined;
      return found?.credential === credential ? found : undefined;
    },
    open: openSession,
    track,
    modern: modern.endpoint,
    list: () => [...sessions.entries()].map(([id, s]) => ({ id, agent: s.tools.agent(), credential: s.credential, idle: s.open === 0 })),
    async close() {
      caps.close();
      tasks.close();
      modern.close();
      await modern.endpoint.close().catch(() => {});
      unsubscribe();
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map(async (s) => {
        s.tools.abortAll();
        await s.transport.close().catch(() => {});
        await s.tools.server.close().catch(() => {});
      }));
    },
  };
}
