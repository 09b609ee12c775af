// The app's one loopback listener: the browser-mode page and its WebSocket, and the routes other
// parts mount (the gateway's /mcp and /v1/requests). Everything passes the guard first.
// Its parts: replies.ts (the answers it writes itself), socket-deadlines.ts (how long a peer may
// hold a socket), page.ts (the page's link, files and WebSocket).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { randomBytes } from "node:crypto";
import { WebSocketServer, type WebSocket } from "ws";
import { checkRequest, isLoopbackHost, isLoopbackOrigin, type GuardResult } from "./guard";
import { declaredTooLarge, HttpError, MAX_BODY_BYTES } from "./body";
import { targetPath } from "./request-target";
import { bindFailure, type PortClaim } from "./port-claim";
import { acceptPageSocket, servePage } from "./page";
import { BAD_TARGET, sendJsonError, sendText, writeRaw, type Refusal } from "./replies";
import { checkingIntervalMs, holdToDeadlines, socketDeadlines, watchBodyRate, type SocketDeadlines } from "./socket-deadlines";
import { errorMessage } from "../../shared/unknown-value";
import { closeListener } from "./close-listener";

/** What the guard learnt of a route's caller: the credential, and the agent a per-agent credential names. */
export interface RouteAuth {
  credential: string;
  agent?: string;
}

export interface Route {
  /** `/mcp` matches `/mcp`, `/mcp/…` and `/mcp?…`. */
  prefix: string;
  /** `auth.credential`: what authenticated the request (guard.ts), for bounds kept per credential. */
  handle(req: IncomingMessage, res: ServerResponse, auth: RouteAuth): Promise<void> | void;
  /** Writes a refusal in the route's own error shape (JSON-RPC for /mcp); plain JSON otherwise. */
  refuse?(res: ServerResponse, refusal: Refusal): void;
  /**
   * Served without the bearer token, after the Host and Origin checks: the OAuth callback (a
   * browser redirect cannot carry the token; its `state` is its credential) and OAuth discovery
   * (a client discovering has no token to send).
   */
  public?: boolean;
}

export interface ListenerOptions {
  /** Loopback only; anything else is refused at start. */
  host?: "127.0.0.1";
  /** Default 7315; 0 picks a free port (tests). */
  port?: number;
  /** The port bound before anything else started (claimPort); wins over `port`. */
  claim?: PortClaim;
  token: () => string;
  /** The built renderer, e.g. out/renderer. */
  staticDir: string;
  routes?: Route[];
  /** The WWW-Authenticate value of a 401 outside the routes (the gateway token's challenge). */
  challenge?: () => string;
  /** A page's authenticated WebSocket at /ws. */
  onSocket?(ws: WebSocket, req: IncomingMessage): void;
  log?: (line: string) => void;
  /** Deadlines of a socket's requests; each defaults to its constant in limits.ts (tests lower them). */
  deadlines?: Partial<SocketDeadlines>;
}

export interface Listener {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The link to print: it carries the token once; the page trades it for a cookie. */
  pageUrl(): string;
  addRoute(route: Route): void;
  /** The deadlines as the server holds them (for the settings view and tests). */
  deadlines(): SocketDeadlines;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 7315;

function matches(prefix: string, pathname: string): boolean {
  return pathname === prefix || pathname.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
}

/** A public route still answers loopback names and loopback origins only (DNS rebinding). */
function publicVerdict(req: IncomingMessage): GuardResult {
  const host = typeof req.headers.host === "string" ? req.headers.host : undefined;
  if (!isLoopbackHost(host)) return { ok: false, status: 403, message: `Refused: Host "${host ?? ""}" is not a loopback name.` };
  const origin = req.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(String(origin))) return { ok: false, status: 403, message: "Refused: foreign Origin." };
  return { ok: true, via: "bearer", credential: "public" };
}

/** A request for a route: the guard's verdict (a public route's own), the body's bound, then the route. */
async function serveRoute(route: Route, req: IncomingMessage, res: ServerResponse, options: ListenerOptions, log: (line: string) => void): Promise<void> {
  const verdict = route.public ? publicVerdict(req) : checkRequest(req, { token: options.token, allowCookie: false, agentCredentials: true });
  const refuse = (refusal: Refusal) => (route.refuse ? route.refuse(res, refusal) : sendJsonError(res, refusal, options.challenge));
  if (!verdict.ok) return refuse(verdict);
  if (declaredTooLarge(req)) {
    req.resume();
    return refuse({ ok: false, status: 413, message: `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB.` });
  }
  try {
    await route.handle(req, res, { credential: verdict.credential, ...(verdict.agent !== undefined ? { agent: verdict.agent } : {}) });
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 500;
    const message = errorMessage(error);
    if (status === 500) log(`http: ${route.prefix} failed: ${message}`);
    refuse({ ok: false, status, message: status === 500 ? "Internal error." : message });
  }
}

export async function startListener(options: ListenerOptions): Promise<Listener> {
  const host = options.host ?? "127.0.0.1";
  if (host !== "127.0.0.1") throw new Error(`The companion listens on 127.0.0.1 only, not "${host}".`);
  // OAuth discovery answers a clear error, so an OAuth client told "401" stops instead of registering.
  // The proof lets a client check it talks to this companion before it sends the token.
  const routes = [...(options.routes ?? [])];
  const log = options.log ?? (() => {});
  // The page's cookie carries a per-run session secret, not the token itself: rotating the
  // gateway token then does not log out open pages, and the token never sits in a cookie jar.
  const session = randomBytes(32).toString("base64url");
  let cookieName = "tnc_session";
  const cookie = { name: () => cookieName, value: () => session };

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The path alone picks a route: a URL object is built only for the page (it reads the query).
    const pathname = targetPath(req.url);
    if (pathname === undefined) return sendText(res, 400, BAD_TARGET);
    const route = routes.find((r) => matches(r.prefix, pathname));
    if (route) return serveRoute(route, req, res, options, log);
    await servePage(req, res, options.staticDir, { token: options.token, cookie });
  }

  const deadlines = socketDeadlines(options.deadlines);
  const server = createServer({ connectionsCheckingInterval: checkingIntervalMs(deadlines) }, (req, res) => {
    // Neither a request nor its response may take the process down with an unhandled 'error'.
    req.on("error", () => {});
    res.on("error", () => {});
    watchBodyRate(req, deadlines, log);
    onRequest(req, res).catch((error: unknown) => {
      log(`http: request failed: ${errorMessage(error)}`);
      try {
        sendText(res, 500, "Internal error.");
      } catch {
        res.destroy();
      }
    });
  });
  holdToDeadlines(server, deadlines);

  // Bytes that are not HTTP (a bad request line, oversize headers), or headers or a request past
  // its deadline: answer 400, 431 or 408 where the socket still takes it, then destroy it
  // (writeRaw). A socket error after that must not surface either.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    socket.on("error", () => {});
    if (error.code === "ECONNRESET") return void socket.destroy();
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return writeRaw(socket, 408, "Refused: the request did not arrive in time.");
    writeRaw(socket, error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400, "Bad request.");
  });

  server.on("connection", (socket) => socket.on("error", () => {}));

  // The upgrade event runs outside any request handler: a throw here would end the process.
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      acceptPageSocket(req, socket, head, { token: options.token, cookie, wss, onSocket: options.onSocket, log });
    } catch (error) {
      log(`http: upgrade failed: ${errorMessage(error)}`);
      writeRaw(socket, 400, "Refused: the upgrade request could not be read.");
    }
  });

  await new Promise<void>((resolvePromise, reject) => {
    const fail = (error: Error) => reject(bindFailure(error, options.claim?.port ?? options.port ?? DEFAULT_PORT));
    const listening = () => {
      server.off("error", fail);
      resolvePromise();
    };
    server.once("error", fail);
    if (options.claim) server.listen(options.claim.handOver(), listening);
    else server.listen(options.port ?? DEFAULT_PORT, host, listening);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  // Cookies ignore ports; a per-port name keeps two companions on one machine from clashing.
  cookieName = `tnc_session_${port}`;
  const base = `http://127.0.0.1:${port}`;

  return {
    url: base,
    port,
    pageUrl: () => `${base}/?token=${encodeURIComponent(options.token())}`,
    addRoute(route) {
      routes.push(route);
    },
    deadlines: () => ({ ...deadlines, headersMs: server.headersTimeout, requestMs: server.requestTimeout, keepAliveMs: server.keepAliveTimeout }),
    close: () => closeListener(server, wss),
  };
}
