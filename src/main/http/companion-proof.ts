// How a client tells the companion from whatever else listens on its port, before it sends the
// token. Any local process can listen on 127.0.0.1:7315 while the companion is not running, and a
// client that sent it the bearer token would hand over the gateway (and, to a hook, the power to
// print "allow"). So the client first sends a fresh random nonce, no token, to this public
// endpoint; the companion answers HMAC-SHA256(token, context, nonce, its own address). Only the
// token's holder can compute it, and the address stops a listener on another port from relaying
// a real companion's answer. The client checks it on the same connection that then carries the
// token (src/main/cli/proven-connection.ts).
//
// TCP stays, rather than a Unix socket only the companion's user can open: agents like Cursor and
// VS Code take an HTTP URL, and the proof keeps one listener for all of them.
import { createHmac } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Route } from "./listener";
import { parseTarget } from "./request-target";

export const PROOF_PATH = "/v1/companion-proof";
/** Separates this use of the token from any other MAC made with it. */
const PROOF_CONTEXT = "toolnexus-companion-proof-v1";
export const NONCE_BYTES = 32;
/** A nonce is exactly NONCE_BYTES in base64url, so the endpoint reads a fixed, small input. */
const NONCE = /^[A-Za-z0-9_-]{43}$/;

/** `127.0.0.1:7315`, `[::1]:7315`; an IPv4-mapped IPv6 address is written as the IPv4 one. */
export function listenerAddress(address: string | undefined, port: number | undefined): string {
  const host = (address ?? "").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  return `${host.includes(":") ? `[${host}]` : host}:${port ?? 0}`;
}

export function companionProof(token: string, nonce: string, address: string): string {
  return createHmac("sha256", token).update(`${PROOF_CONTEXT}\n${nonce}\n${address}`).digest("base64url");
}

function isNonce(value: string | null | undefined): value is string {
  return typeof value === "string" && NONCE.test(value);
}

function send(res: ServerResponse, status: number, body: object, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...extra,
  });
  res.end(text);
}

/**
 * GET /v1/companion-proof?nonce=<43 base64url chars> → `{ "proof": "<base64url>" }`. Public (a
 * client proves the companion before it sends the token), after the listener's Host and Origin
 * checks. One HMAC over under 200 bytes per request: cheaper than the HTTP parsing around it, so
 * it needs no rate limit of its own; the listener's connection and header bounds apply.
 */
export function proofRoute(token: () => string): Route {
  return {
    prefix: PROOF_PATH,
    public: true,
    handle(req: IncomingMessage, res: ServerResponse) {
      const url = parseTarget(req.url);
      if (url?.pathname !== PROOF_PATH) return send(res, 404, { error: { status: 404, message: "Not found." } });
      if (req.method !== "GET") return send(res, 405, { error: { status: 405, message: "Use GET." } }, { allow: "GET" });
      const nonce = url.searchParams.get("nonce");
      if (!isNonce(nonce)) {
        return send(res, 400, { error: { status: 400, message: `nonce must be ${NONCE_BYTES} random bytes in base64url (43 characters).` } });
      }
      const secret = token();
      if (secret === "") return send(res, 503, { error: { status: 503, message: "The companion has no token yet." } });
      send(res, 200, { proof: companionProof(secret, nonce, listenerAddress(req.socket.localAddress, req.socket.localPort)) });
    },
  };
}
