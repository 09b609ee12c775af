// How long one peer may hold a socket of the listener without sending what it owes: Node's own
// deadlines for the headers, the whole request and an idle keep-alive socket, and the pace of a
// body, which Node does not bound.
import type { IncomingMessage, Server } from "node:http";
import {
  HTTP_BODY_GRACE_MS,
  HTTP_BODY_MIN_BYTES_PER_S,
  HTTP_HEADERS_TIMEOUT_MS,
  HTTP_KEEP_ALIVE_TIMEOUT_MS,
  HTTP_REQUEST_TIMEOUT_MS,
} from "../../shared/limits";

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

/** Each deadline given, or its constant in limits.ts. */
export function socketDeadlines(given: Partial<SocketDeadlines> = {}): SocketDeadlines {
  return {
    headersMs: given.headersMs ?? HTTP_HEADERS_TIMEOUT_MS,
    requestMs: given.requestMs ?? HTTP_REQUEST_TIMEOUT_MS,
    keepAliveMs: given.keepAliveMs ?? HTTP_KEEP_ALIVE_TIMEOUT_MS,
    bodyGraceMs: given.bodyGraceMs ?? HTTP_BODY_GRACE_MS,
    bodyMinBytesPerS: given.bodyMinBytesPerS ?? HTTP_BODY_MIN_BYTES_PER_S,
  };
}

/** Node looks at the header and request deadlines only this often (30 s unless told). */
export function checkingIntervalMs(deadlines: SocketDeadlines): number {
  return Math.max(10, Math.min(1000, deadlines.headersMs / 4));
}

/**
 * A peer that holds a socket without sending what it owes is cut off; sockets are descriptors,
 * and a few hundred held ones lock every agent out.
 */
export function holdToDeadlines(server: Server, deadlines: SocketDeadlines): void {
  server.headersTimeout = deadlines.headersMs;
  server.requestTimeout = Math.max(deadlines.requestMs, deadlines.headersMs);
  server.keepAliveTimeout = deadlines.keepAliveMs;
}

/**
 * Node bounds the headers and the whole request, but not the pace of a body: one sent a byte a
 * second holds its socket until requestTimeout. After a grace, the body must have arrived at an
 * average rate of at least `minBytesPerS`, counted on the socket so nothing is read from it here.
 */
export function watchBodyRate(req: IncomingMessage, deadlines: SocketDeadlines, log: (line: string) => void): void {
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
