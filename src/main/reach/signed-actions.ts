// ntfy's Allow/Deny buttons: the one link that answers by itself. Each is an HMAC-signed token
// naming the question (its id and when it arrived), the choice, an expiry and a nonce; it is
// accepted once, by POST only, while the question still waits, and only for an approval. The key
// lives in this process's memory: a restart cancels every pending question anyway, and with it
// every link. The device listener mounts actionRoute() at ACTION_PATH.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendText } from "../http/replies";
import type { Clock } from "./types";

// Under /v1/, where the device listener mounts other features' public routes (devices/service.ts).
export const ACTION_PATH = "/v1/reach/act/";
export type Choice = "allow" | "deny";

/** How long a link answers: long enough to be away, short enough not to linger in a feed. */
export const ACTION_TTL_MS = 30 * 60_000;
/** Used nonces remembered at once (each until its token expires). */
const MAX_REMEMBERED = 10_000;
const MAX_TOKEN_CHARS = 512;

export interface ActionClaim {
  id: string;
  receivedAt: number;
  choice: Choice;
}

interface Payload {
  q: string;
  r: number;
  c: Choice;
  e: number;
  n: string;
}

export type Verdict = { ok: true; claim: ActionClaim } | { ok: false; status: 403 | 410; message: string };

/** Refusals say only what the holder of a real link may know (used, expired), nothing that helps guessing. */
const FORGED: Verdict = { ok: false, status: 403, message: "Refused." };

/** Only what mint() wrote passes the MAC; still read as untrusted. */
function readPayload(body: string): Payload | undefined {
  try {
    const p = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Partial<Payload>;
    const fine = typeof p.q === "string" && typeof p.r === "number" && (p.c === "allow" || p.c === "deny") && typeof p.e === "number" && typeof p.n === "string";
    return fine ? (p as Payload) : undefined;
  } catch {
    return undefined;
  }
}

export interface SignedActions {
  /** A new single-use token for this question and choice. */
  mint(claim: ActionClaim): string;
  /** The claim, consumed, or why not. */
  consume(token: string): Verdict;
}

export function createSignedActions(options: { clock: Pick<Clock, "now">; ttlMs?: number; key?: Buffer }): SignedActions {
  const key = options.key ?? randomBytes(32);
  const ttl = options.ttlMs ?? ACTION_TTL_MS;
  const used = new Map<string, number>();
  const sign = (body: string) => createHmac("sha256", key).update(`reach-action.v1.${body}`).digest();
  const forgetExpired = (now: number) => {
    for (const [nonce, expires] of used) if (expires <= now) used.delete(nonce);
  };
  return {
    mint(claim) {
      const payload: Payload = { q: claim.id, r: claim.receivedAt, c: claim.choice, e: options.clock.now() + ttl, n: randomBytes(16).toString("base64url") };
      const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
      return `${body}.${sign(body).toString("base64url")}`;
    },
    consume(token) {
      if (typeof token !== "string" || token.length > MAX_TOKEN_CHARS) return FORGED;
      const [body, mac, extra] = token.split(".");
      if (!body || !mac || extra !== undefined) return FORGED;
      const expected = sign(body);
      const given = Buffer.from(mac, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return FORGED;
      const payload = readPayload(body);
      if (!payload) return FORGED;
      const now = options.clock.now();
      forgetExpired(now);
      if (payload.e <= now) return { ok: false, status: 410, message: "This link has expired; answer in the companion." };
      if (used.has(payload.n)) return { ok: false, status: 410, message: "This link was already used." };
      if (used.size >= MAX_REMEMBERED) return { ok: false, status: 410, message: "Too many answers by link at once; answer in the companion." };
      used.set(payload.n, payload.e);
      return { ok: true, claim: { id: payload.q, receivedAt: payload.r, choice: payload.c } };
    },
  };
}

/**
 * Answers the claimed question (an approval still waiting, the same one the link was made for), or
 * says why not; the route turns a throw into 410 "no longer waiting".
 */
export type AnswerClaim = (claim: ActionClaim) => void;

/**
 * The device listener's handler for `POST /v1/reach/act/<token>`: true when it answered the request
 * (any path under ACTION_PATH), false for the listener to go on with other routes.
 */
export function actionRoute(actions: SignedActions, answer: AnswerClaim, log: (line: string) => void): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (!path.startsWith(ACTION_PATH)) return false;
    // No body is read: the token in the path is everything the action says.
    req.resume();
    if (req.method !== "POST") {
      sendText(res, 405, "Use POST.", { allow: "POST" });
      return true;
    }
    const verdict = actions.consume(path.slice(ACTION_PATH.length));
    if (!verdict.ok) {
      sendText(res, verdict.status, verdict.message);
      return true;
    }
    try {
      answer(verdict.claim);
    } catch {
      sendText(res, 410, "This question is no longer waiting.");
      return true;
    }
    log(`reach: question ${verdict.claim.id} answered ${verdict.claim.choice === "allow" ? "Allow" : "Deny"} from an ntfy action`);
    sendText(res, 200, verdict.claim.choice === "allow" ? "Allowed." : "Denied.");
    return true;
  };
}
