// The listener's own answers: plain text and JSON refusals on a response, and a refusal written
// straight to a raw socket (an upgrade, a parse error, a deadline).
import type { ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { GuardResult } from "./guard";

export type Refusal = Extract<GuardResult, { ok: false }>;

export const BAD_TARGET = "Refused: the request target is not a valid path.";

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
} as const;

export function sendText(res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...extra });
  res.end(message);
}

export function sendJsonError(res: ServerResponse, refusal: Refusal, challenge?: () => string): void {
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
export function writeRaw(socket: Duplex, status: number, message: string): void {
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
