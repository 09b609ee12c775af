// The questions agents posted to /v1/requests (requests-route.ts), and who may see or withdraw
// each: only its poster. Each POST gets a fresh capability (X-Request-Capability); GET and DELETE
// of that question need it, or the same per-agent credential that posted it. Only the
// capability's digest is kept, and it is compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { RouteAuth } from "../http/listener";

export const CAPABILITY_HEADER = "x-request-capability";
/** How many capabilities one GET of the list may present (one per question the caller posted). */
const MAX_CAPABILITIES = 64;

function digestOf(capability: string): Buffer {
  return createHash("sha256").update(capability).digest();
}

/** The capabilities the caller presents, as digests (comma-separated, like any list header). */
function presented(req: IncomingMessage): Buffer[] {
  const header = req.headers[CAPABILITY_HEADER];
  if (header === undefined) return [];
  const values = (Array.isArray(header) ? header.join(",") : header).split(",").map((v) => v.trim()).filter((v) => v !== "");
  return values.slice(0, MAX_CAPABILITIES).map(digestOf);
}

export interface Posted {
  agent: string;
  controller: AbortController;
  /** Digest of the capability its poster was given. */
  capability: Buffer;
  /** What authenticated the POST (guard.ts); a per-agent credential owns what it posted. */
  credential: string;
}

export class PostedQuestions {
  /** Questions posted here, with the digest of the capability their poster was given. */
  private readonly posted = new Map<string, Posted>();

  has(id: string): boolean {
    return this.posted.has(id);
  }

  /** Records a question posted by `agent`; returns the capability to give its poster. */
  add(id: string, agent: string, controller: AbortController, credential: string): string {
    const capability = randomBytes(32).toString("base64url");
    this.posted.set(id, { agent, controller, capability: digestOf(capability), credential });
    return capability;
  }

  delete(id: string): void {
    this.posted.delete(id);
  }

  /** The question `id` if the caller posted it; otherwise it is not there for them. */
  owned(req: IncomingMessage, auth: RouteAuth | undefined, id: string): Posted | undefined {
    const mine = this.posted.get(id);
    return mine && postedBy(req, auth, mine) ? mine : undefined;
  }

  /** Whether the caller posted question `id`. */
  isOwned(req: IncomingMessage, auth: RouteAuth | undefined, id: string): boolean {
    return this.owned(req, auth, id) !== undefined;
  }

  /** Withdraws every question posted here (app quit). */
  abortAll(): void {
    for (const { controller } of this.posted.values()) controller.abort();
  }
}

/**
 * Whether the caller posted this question: it presents the question's capability, or it calls
 * with the same per-agent credential that posted it (that credential is the agent's identity).
 */
function postedBy(req: IncomingMessage, auth: RouteAuth | undefined, mine: Posted): boolean {
  if (auth?.agent !== undefined && mine.credential === auth.credential) return true;
  return presented(req).some((digest) => timingSafeEqual(digest, mine.capability));
}
