// The app's one loopback listener: the browser-mode page and its WebSocket, and the routes other
// parts mount (the gateway's /mcp and /v1/requests). Everything passes the guard first.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { randomBytes } from "node:crypto";
import { WebSocketServer, type WebSocket } from "ws";
import { checkRequest, isLoopbackHost, isLoopbackOrigin, sameSecret, type GuardResult } from "./guard";
import { declaredTooLarge, HttpError, MAX_BODY_BYTES } from "./body";
import { serveStatic } from "./static-files";
import { parseTarget, targetPath } from "./request-target";
import {
  HTTP_BODY_GRACE_MS,
  HTTP_BODY_MIN_BYTES_PER_S,
  HTTP_HEADERS_TIMEOUT_MS,
  HTTP_KEEP_ALIVE_TIMEOUT_MS,
  HTTP_REQUEST_TIMEOUT_MS,
} from "../../shared/limits";
import { bindFailure, type PortClaim } from "./port-claim";
import { errorMessage } from "../../shared/unknown-value";

export type Refusal = Extract<GuardResult, { ok: false }>;

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

/** How long one peer may hold a socket without sending what it owes. */
export interface SocketDeadlines {
  /** The complete headers (HTTP_HEADERS_TIMEOUT_MS). */
  headersMs: number;
  /** The whole request, body included (HTTP_REQUEST_TIMEOUT_MS). */
  requestMs: number;
  /** An idle keep-alive socket (HTTP_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveMs: number;
  /** A body's grace, then its least average rate (HTTP_BODY_GRACE_MS, HTTP_BODY_MIN_BYTES_PER_S). */
  bodyGraceMs: number;
  bodyMinBytesPerS: number;
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

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
} as const;

function matches(prefix: string, pathname: string): boolean {
  return pathname === prefix || pathname.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
}

function sendText(res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...extra });
  res.end(message);
}

function sendJsonError(res: ServerResponse, refusal: Refusal, challenge?: () => string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string> = { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" };
  if (refusal.status === 401 && challenge) headers["www-authenticate"] = challenge();
  res.writeHead(refusal.status, headers);
  res.end(JSON.stringify({ error: { status: refusal.status, message: refusal.message } }));
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
};

/** How long a refused socket stays open after its answer, for the peer to read it. */
const RAW_LINGER_MS = 500;

/**
 * A plain HTTP refusal written straight to a raw socket (an upgrade, a parse error, a deadline),
 * then the socket is destroyed. `end()` alone only half-closes it: a peer that never reads and
 * never closes its side would keep the socket, and its descriptor, for ever. What it still sends
 * meanwhile is read and dropped, so closing does not reset the connection under the answer.
 */
function writeRaw(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return;
  const linger = setTimeout(() => socket.destroy(), RAW_LINGER_MS);
  linger.unref();
  socket.once("close", () => clearTimeout(linger));
  if (!socket.writable) return void socket.destroy();
  // Header values come from our own messages, but a message may quote what the client sent.
  const body = message.replace(/[\r\n]+/g, " ");
  try {
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status] ?? "Bad Request"}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.resume();
  } catch {
    socket.destroy();
  }
}

/**
 * Node bounds the headers and the whole request, but not the pace of a body: one sent a byte a
 * second holds its socket until requestTimeout. After a grace, the body must have arrived at an
 * average rate of at least `minBytesPerS`, counted on the socket so nothing is read from it here.
 */
function watchBodyRate(req: IncomingMessage, deadlines: SocketDeadlines, log: (line: string) => void): void {
  const length = Number(req.headers["content-length"] ?? 0);
  if (!(length > 0) && req.headers["transfer-encoding"] === undefined) return;
  const socket = req.socket;
  const start = Date.now();
  const startBytes = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) return clearInterval(timer);
    const late = Date.now() - start - deadlines.bodyGraceMs;
    if (late <= 0) return;
    if (socket.bytesRead - startBytes >= (deadlines.bodyMinBytesPerS * late) / 1000) return;
    clearInterval(timer);
    log(`http: a request body arrived slower than ${deadlines.bodyMinBytesPerS} bytes/s; its socket was closed`);
    socket.destroy();
  }, Math.max(10, Math.min(1000, deadlines.bodyGraceMs / 4)));
  timer.unref();
  req.once("close", () => clearInterval(timer));
}

const BAD_TARGET = "Refused: the request target is not a valid path.";

/** A public route still answers loopback names and loopback origins only (DNS rebinding). */
function publicVerdict(req: IncomingMessage): GuardResult {
  const host = typeof req.headers.host === "string" ? req.headers.host : undefined;
  if (!isLoopbackHost(host)) return { ok: false, status: 403, message: `Refused: Host "${host ?? ""}" is not a loopback name.` };
  const origin = req.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(String(origin))) return { ok: false, status: 403, message: "Refused: foreign Origin." };
  return { ok: true, via: "bearer", credential: "public" };
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
    if (route) {
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
      return;
    }

    if (req.method !== "GET" && req.method !== "HEAD") return sendText(res, 405, "Method not allowed.", { allow: "GET, HEAD" });
    const url = parseTarget(req.url);
    if (!url) return sendText(res, 400, BAD_TARGET);

    const offered = url.searchParams.get("token");
    if (offered !== null) {
      // The printed link: trade the token for the session cookie, then drop it from the address bar.
      if (!isLoopbackHost(req.headers.host)) return sendText(res, 403, "Refused: this Host is not a loopback name.");
      const origin = req.headers.origin;
      if (origin !== undefined && !isLoopbackOrigin(origin)) return sendText(res, 403, "Refused: foreign Origin.");
      if (!sameSecret(offered, options.token())) {
        return sendText(res, 401, "Refused: the token in this link is wrong or was rotated. Use the link the companion printed.");
      }
      url.searchParams.delete("token");
      return sendText(res, 303, "Signed in.", {
        location: url.pathname + url.search,
        "set-cookie": `${cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/`,
      });
    }

    const verdict = checkRequest(req, { token: options.token, allowCookie: true, cookie: { name: cookie.name(), value: cookie.value } });
    if (!verdict.ok) return sendText(res, verdict.status, verdict.message);
    await serveStatic(options.staticDir, url.pathname, req, res);
  }

  const deadlines: SocketDeadlines = {
    headersMs: options.deadlines?.headersMs ?? HTTP_HEADERS_TIMEOUT_MS,
    requestMs: options.deadlines?.requestMs ?? HTTP_REQUEST_TIMEOUT_MS,
    keepAliveMs: options.deadlines?.keepAliveMs ?? HTTP_KEEP_ALIVE_TIMEOUT_MS,
    bodyGraceMs: options.deadlines?.bodyGraceMs ?? HTTP_BODY_GRACE_MS,
    bodyMinBytesPerS: options.deadlines?.bodyMinBytesPerS ?? HTTP_BODY_MIN_BYTES_PER_S,
  };
  // Node looks at the header and request deadlines only this often (30 s unless told).
  const connectionsCheckingInterval = Math.max(10, Math.min(1000, deadlines.headersMs / 4));
  const server = createServer({ connectionsCheckingInterval }, (req, res) => {
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

  // A peer that holds a socket without sending what it owes is cut off; sockets are descriptors,
  // and a few hundred held ones lock every agent out.
  server.headersTimeout = deadlines.headersMs;
  server.requestTimeout = Math.max(deadlines.requestMs, deadlines.headersMs);
  server.keepAliveTimeout = deadlines.keepAliveMs;

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

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on("error", () => {});
    const url = parseTarget(req.url);
    if (!url) return writeRaw(socket, 400, BAD_TARGET);
    if (url.pathname !== "/ws" || !options.onSocket) return writeRaw(socket, 404, "No WebSocket here.");
    const verdict = checkRequest(req, { token: options.token, allowCookie: true, cookie: { name: cookie.name(), value: cookie.value } });
    if (!verdict.ok) return writeRaw(socket, verdict.status, verdict.message);
    wss.handleUpgrade(req, socket, head, (ws) => {
      try {
        options.onSocket!(ws, req);
      } catch (error) {
        log(`ws: a page's socket could not be set up: ${(error as Error).message}`);
        ws.terminate();
      }
    });
  }

  // The upgrade event runs outside any request handler: a throw here would end the process.
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      onUpgrade(req, socket, head);
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
    close: () =>
      new Promise<void>((resolvePromise) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.close(() => resolvePromise());
        server.closeAllConnections();
      }),
  };
}
