// /mcp for 2026-07-28 agents: server/discover and the stateless per-request framing (each request
// carries its client info and capabilities in `_meta`; no initialize, no session). The SDK's
// createMcpHandler serves that era from a per-request server (tool-server.ts with `modern`), next
// to the gateway's own sessions for 2025-11-25 traffic: mcp-route.ts sends a POST here only when
// the SDK's own classification (isLegacyRequest) says it is not 2025-era, after the listener's
// Host, Origin and bearer token checks and mcp-route.ts's body bounds, as every request.
//
// Bounds: a request here holds a server while it runs, so requests in flight (a subscriptions/listen
// stream among them) are capped per credential and in all at the session caps
// (MAX_MCP_SESSIONS_PER_CREDENTIAL, _TOTAL); past them the agent is refused 429 with Retry-After.
// What a stream may hold for an agent that does not read it is bounded as on a session.
import type { IncomingMessage, ServerResponse } from "node:http";
import { PROTOCOL_VERSION_META_KEY, createMcpHandler, isLegacyRequest, type AuthInfo, type Server } from "@modelcontextprotocol/server";
import { toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import type { RouteAuth } from "../http/listener";
import { CONNECTION_REFUSED, sendJsonRpcError } from "./jsonrpc-errors";
import { boundStreamWrites } from "./stream-bound";
import { isPlainObject } from "../../shared/unknown-value";

export interface ModernEndpointOptions {
  /** A server for one request of this agent (tool-server.ts with `modern`), and what ends it. */
  serverFor(auth: RouteAuth): { server: Server; dispose(): void };
  log: (line: string) => void;
  /** Requests in flight per credential and in all. */
  perCredential: number;
  total: number;
  maxQueuedBytes?: number;
}

export interface ModernEndpoint {
  /**
   * Whether this POST is 2026-07-28 traffic. A cheap look first (a modern revision in the header
   * or a protocol version in some message's `_meta`), so 2025-11-25 calls pay nothing; then the
   * SDK's own classification, which the modern handler agrees with.
   */
  claims(req: IncomingMessage, body: object): Promise<boolean>;
  handle(req: IncomingMessage, res: ServerResponse, body: object, auth: RouteAuth): Promise<void>;
  /** The tool set, prompts or resources changed: open subscriptions/listen streams are told. */
  changed(what: "tools" | "prompts" | "resources"): void;
  close(): Promise<void>;
}

/** Revision ids are ISO dates: the 2026-07-28 wire and any later one. */
function isModernRevision(value: unknown): boolean {
  return typeof value === "string" && value >= "2026-07-28";
}

function carriesClaim(req: IncomingMessage, body: object): boolean {
  if (isModernRevision(req.headers["mcp-protocol-version"])) return true;
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => isPlainObject(m) && isPlainObject(m.params) && isPlainObject(m.params._meta) && m.params._meta[PROTOCOL_VERSION_META_KEY] !== undefined);
}

/** The route's auth, carried to the per-request factory through the SDK's pass-through authInfo. */
interface CarriedAuth extends AuthInfo {
  extra: { route: RouteAuth };
}

export function createModernEndpoint(options: ModernEndpointOptions): ModernEndpoint {
  const { log } = options;
  const handler = createMcpHandler(
    (ctx) => {
      const route = (ctx.authInfo as CarriedAuth | undefined)?.extra?.route;
      // Never without the listener's auth: every request here passed it (handle below).
      if (!route || ctx.era !== "modern") throw new Error("the gateway serves the 2026-07-28 era here only, for an authenticated agent");
      const { server, dispose } = options.serverFor(route);
      const onclose = server.onclose;
      server.onclose = () => {
        onclose?.();
        dispose();
      };
      return server;
    },
    { legacy: "reject", onerror: (error) => log(`gateway: a 2026-07-28 request failed: ${error.message}`) },
  );
  const serve = toNodeHandler(handler, { onerror: (error) => log(`gateway: a 2026-07-28 request could not be served: ${error.message}`) });
  const inFlight = new Map<string, number>();
  let total = 0;

  function refusal(credential: string): string | undefined {
    if ((inFlight.get(credential) ?? 0) >= options.perCredential) {
      return `Too many requests in flight: this agent's credential has ${options.perCredential} open, the cap (MAX_MCP_SESSIONS_PER_CREDENTIAL). Retry when one ends.`;
    }
    if (total >= options.total) return `Too many requests in flight: the gateway has ${options.total} open, the cap (MAX_MCP_SESSIONS_TOTAL). Retry later.`;
    return undefined;
  }

  return {
    async claims(req, body) {
      if (!carriesClaim(req, body)) return false;
      return !(await isLegacyRequest(await toWebRequest(req, body), body));
    },
    async handle(req, res, body, auth) {
      const refused = refusal(auth.credential);
      if (refused) {
        log(`gateway: a 2026-07-28 request was refused: ${refused}`);
        sendJsonRpcError(res, 429, CONNECTION_REFUSED, refused, { "retry-after": "1" });
        return;
      }
      inFlight.set(auth.credential, (inFlight.get(auth.credential) ?? 0) + 1);
      total += 1;
      res.once("close", () => {
        total -= 1;
        const left = (inFlight.get(auth.credential) ?? 1) - 1;
        if (left > 0) inFlight.set(auth.credential, left);
        else inFlight.delete(auth.credential);
      });
      boundStreamWrites(res, log, options.maxQueuedBytes);
      const carried: CarriedAuth = { token: "", clientId: auth.agent ?? "agent", scopes: [], extra: { route: auth } };
      await serve(Object.assign(req, { auth: carried }), res, body);
    },
    changed(what) {
      if (what === "tools") handler.notify.toolsChanged();
      else if (what === "prompts") handler.notify.promptsChanged();
      else handler.notify.resourcesChanged();
    },
    close: () => handler.close(),
  };
}
