// Puts everything on the one loopback listener: the browser-mode page and its WebSocket, the
// gateway's /mcp for local agents and /v1/requests for posted Requests. Browser mode (serve.ts)
// and the Electron app both start it, so agents reach the companion the same way in either.
import type { Core } from "./core";
import { createWsServer } from "../api/ws-server";
import { createGatewayRoute, createRequestsRoute } from "../gateway";
import { startListener, DEFAULT_PORT, type Listener, type ListenerOptions, type Route } from "../http/listener";
import type { PortClaim } from "../http/port-claim";
import { proofRoute } from "../http/companion-proof";
import { discoveryRoute, gatewayChallenge } from "../gateway/token-refusal";

export interface CompanionServerOptions {
  /** Default 7315; 0 picks a free port. */
  port?: number;
  /** The port claimed before the MCP servers started (claimPort); wins over `port`. */
  claim?: PortClaim;
  /** The built renderer (out/renderer). */
  staticDir: string;
  log?: (line: string) => void;
}

export interface CompanionServer extends Listener {
  /** Pages connected over /ws. */
  pages(): number;
}

/**
 * What every listener of the companion serves besides its feature routes: OAuth discovery refused
 * in words, the proof that answers "is this the companion?", and the gateway token's challenge.
 */
export function companionPolicy(token: () => string, routes: Route[]): Pick<ListenerOptions, "routes" | "challenge"> {
  return { routes: [...routes, discoveryRoute(), proofRoute(token)], challenge: gatewayChallenge };
}

export async function startCompanionServer(core: Core, options: CompanionServerOptions): Promise<CompanionServer> {
  const log = options.log ?? (() => {});
  const ws = createWsServer(core, log);
  // Read per call, so an edit of `gateway.elicitation` in the config applies at once.
  const gateway = createGatewayRoute({ source: core.source, log, elicitation: (agent) => core.whoAnswers(agent) });
  const requests = createRequestsRoute({ inbox: core.inbox, log });
  const listener = await startListener({
    host: "127.0.0.1",
    port: options.port ?? DEFAULT_PORT,
    ...(options.claim ? { claim: options.claim } : {}),
    token: core.token,
    staticDir: options.staticDir,
    ...companionPolicy(core.token, [gateway, requests]),
    onSocket: (socket) => ws.onSocket(socket),
    log,
  });
  const server: CompanionServer = {
    ...listener,
    pages: () => ws.size(),
    async close() {
      requests.close();
      await gateway.close().catch(() => {});
      ws.close();
      await listener.close();
    },
  };
  // core.close() cancels the questions and ends the servers first, then closes this.
  core.attachListener(server);
  return server;
}
