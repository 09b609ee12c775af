// The one gate in front of everything the loopback listener serves. Pages, their WebSocket, the
// gateway and agents' /v1/requests all pass here, so DNS rebinding, cross-site requests and other
// local users' processes are refused in one place.
import type { IncomingMessage } from "node:http";
import { timingSafeEqual, createHash } from "node:crypto";
import { tryDecode } from "./request-target";
import { agentOfCredential } from "./agent-credential";

/**
 * `credential` names what authenticated the request, for bounds kept per credential (the gateway's
 * sessions): "gateway-token" for the bearer token, "page-session" for the page's cookie,
 * "agent:<name>" for a per-agent credential, which also sets `agent`: who is calling, as the
 * credential says, not as the caller says.
 */
export type GuardResult = { ok: true; via: "bearer" | "cookie"; credential: string; agent?: string } | { ok: false; status: number; message: string };

const GATEWAY_TOKEN_CREDENTIAL = "gateway-token";
const PAGE_SESSION_CREDENTIAL = "page-session";

export interface GuardOptions {
  /** The current bearer token (rotatable, so read on every request). */
  token: () => string;
  /** The page and its WebSocket may authenticate with the session cookie instead of the header. */
  allowCookie: boolean;
  /** Name and current value of the page's session cookie; the value defaults to the token. */
  cookie?: { name: string; value: () => string };
  /**
   * Per-agent credentials (agent-credential.ts) are taken too: for the gateway's routes, never
   * for the page and its WebSocket, which answer for the person.
   */
  agentCredentials?: boolean;
}

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** `127.0.0.1`, `localhost` or `[::1]`, with or without a port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  return match !== null && LOOPBACK_NAMES.has(match[1]);
}

/** An http(s) origin whose host is a loopback name. `null` (sandboxed frames, files) is not. */
export function isLoopbackOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHost(url.host) && url.origin === origin.toLowerCase();
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

// The expected side's digest, kept while the secret stays the same: every request compares
// against the same token, and hashing it again each time was half the guard's cost.
let expectedDigest: { secret: string; digest: Buffer } | undefined;

// Hashing both sides first gives equal lengths, so timingSafeEqual never leaks the token's length.
export function sameSecret(given: string, expected: string): boolean {
  if (expected === "") return false;
  if (expectedDigest?.secret !== expected) expectedDigest = { secret: expected, digest: sha256(expected) };
  return timingSafeEqual(sha256(given), expectedDigest.digest);
}

// The bearer token a keep-alive connection last presented and had accepted, per current token:
// an agent sends the same header on every call, and hashing it again was most of the guard's
// remaining cost. Only an accepted token is kept, so the plain comparison below is against a
// value this connection already sent in full; a new token (rotation) or another header falls
// back to the hashed, constant-time compare. Held weakly by the socket, so it goes with it.
const acceptedOn = new WeakMap<object, { given: string; expected: string }>();

/** sameSecret for a header presented on `connection`, remembering an accepted one per connection. */
export function sameSecretOn(connection: object | undefined, given: string, expected: string): boolean {
  if (expected === "") return false;
  const known = connection ? acceptedOn.get(connection) : undefined;
  if (known !== undefined && known.expected === expected && known.given === given) return true;
  const same = sameSecret(given, expected);
  if (connection) {
    if (same) acceptedOn.set(connection, { given, expected });
    else acceptedOn.delete(connection);
  }
  return same;
}

/** The named cookie's value; undefined when absent, null when its percent-encoding is malformed. */
export function readCookie(req: IncomingMessage, name: string): string | null | undefined {
  const header = req.headers.cookie;
  if (typeof header !== "string" || header === "") return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return tryDecode(part.slice(eq + 1).trim()) ?? null;
  }
  return undefined;
}

/** The host (name and port) of an origin, lowercased, or undefined when it is not a URL. */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== "string" || header === "") return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

/**
 * The verdict for one request. Total: whatever the headers hold, it returns a verdict and never
 * throws (a throw here would escape an `upgrade` handler and end the process); a check that
 * cannot decide refuses.
 */
export function checkRequest(req: IncomingMessage, options: GuardOptions): GuardResult {
  try {
    return decide(req, options);
  } catch {
    return { ok: false, status: 400, message: "Refused: the request's headers could not be read." };
  }
}

function decide(req: IncomingMessage, options: GuardOptions): GuardResult {
  const rawHost = req.headers.host;
  const host = typeof rawHost === "string" ? rawHost : undefined;
  if (!isLoopbackHost(host)) {
    return { ok: false, status: 403, message: `Refused: Host "${host ?? ""}" is not a loopback name (127.0.0.1, localhost, [::1]).` };
  }
  const rawOrigin = req.headers.origin;
  const origin = rawOrigin === undefined ? undefined : String(rawOrigin);
  if (origin !== undefined && !isLoopbackOrigin(origin)) {
    return { ok: false, status: 403, message: `Refused: Origin "${origin}" is not a loopback origin.` };
  }

  const bearer = bearerToken(req);
  if (bearer !== undefined) {
    if (sameSecretOn(req.socket, bearer, options.token())) return { ok: true, via: "bearer", credential: GATEWAY_TOKEN_CREDENTIAL };
    const agent = options.agentCredentials ? agentOfCredential(options.token(), bearer) : undefined;
    if (agent !== undefined) return { ok: true, via: "bearer", credential: `agent:${agent}`, agent };
    return { ok: false, status: 401, message: "Refused: the bearer token is wrong." };
  }

  if (options.allowCookie) {
    const name = options.cookie?.name;
    const value = name ? readCookie(req, name) : undefined;
    if (value === null) {
      return { ok: false, status: 400, message: "Refused: the session cookie is malformed (bad percent-encoding); open the link the companion printed." };
    }
    if (value !== undefined) {
      // SameSite treats every port of localhost as one site, so another local web app could ride
      // the cookie; a cookie-authenticated request must therefore come from this very origin.
      if (origin !== undefined && originHost(origin) !== host!.trim().toLowerCase()) {
        return { ok: false, status: 403, message: `Refused: Origin "${origin}" is not this page's origin.` };
      }
      const expected = options.cookie?.value() ?? options.token();
      if (sameSecret(value, expected)) return { ok: true, via: "cookie", credential: PAGE_SESSION_CREDENTIAL };
      return { ok: false, status: 401, message: "Refused: the session has expired; open the link the companion printed." };
    }
  }
  return {
    ok: false,
    status: 401,
    message: options.allowCookie
      ? "Refused: no token. Open the link the companion printed (it carries the token)."
      : "Refused: missing token. Send Authorization: Bearer <token>.",
  };
}
