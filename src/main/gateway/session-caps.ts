// What one credential can make the gateway keep: its /mcp sessions are capped per credential and
// in all, and idle ones expire, sooner as the sessions near a cap. A session is idle when it has
// no open response (no GET stream, no call answering): the agent dropped its connection, most often
// without DELETE. At a cap the least recently used idle session makes room, so stale sessions never
// lock a fresh agent out (one that comes back gets 404 and initializes again, as the specification
// has it); only when every session is in use is a new one refused.
import { MAX_MCP_SESSIONS_PER_CREDENTIAL, MAX_MCP_SESSIONS_TOTAL, MCP_SESSION_IDLE_MIN_MS, MCP_SESSION_IDLE_MS } from "../../shared/limits";

export interface CappedSession {
  /** What authenticated the agent that opened it (http/guard.ts). */
  credential: string;
  /** Responses still open (the GET stream, calls answering over SSE). */
  open: number;
  lastSeen: number;
}

export interface SessionCapsOptions {
  perCredential?: number;
  total?: number;
  /** The idle deadline while under half of both caps (MCP_SESSION_IDLE_MS). */
  maxIdleMs?: number;
  /** The idle deadline at a cap (MCP_SESSION_IDLE_MIN_MS). */
  minIdleMs?: number;
}

export class SessionCaps<S extends CappedSession> {
  readonly perCredential: number;
  readonly total: number;
  readonly maxIdleMs: number;
  readonly minIdleMs: number;
  /** Initializes under way, per credential: counted against the caps before their session exists. */
  private readonly opening = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  /** `end` removes the session from `sessions` and closes it, logging `why`. */
  constructor(
    private readonly sessions: Map<string, S>,
    private readonly end: (id: string, session: S, why: string) => void,
    options: SessionCapsOptions = {},
  ) {
    this.perCredential = options.perCredential ?? MAX_MCP_SESSIONS_PER_CREDENTIAL;
    this.total = options.total ?? MAX_MCP_SESSIONS_TOTAL;
    this.maxIdleMs = options.maxIdleMs ?? MCP_SESSION_IDLE_MS;
    this.minIdleMs = Math.min(this.maxIdleMs, options.minIdleMs ?? MCP_SESSION_IDLE_MIN_MS);
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(this.minIdleMs / 2, 30_000)));
    this.sweeper.unref();
  }

  /** Seconds an agent refused at a cap is told to wait (Retry-After). */
  retryAfterSeconds(): number {
    return Math.ceil(this.minIdleMs / 1000);
  }

  /**
   * Room for one more session of `credential` (reserved until `opened`), or the refusal naming the
   * cap. At a cap the least recently used idle session is ended to make room.
   */
  reserve(credential: string): string | undefined {
    const perCredential = this.perCredential;
    if (this.countOf(credential) >= perCredential && !this.evictIdle((s) => s.credential === credential, `the cap of ${perCredential} sessions per credential was reached`)) {
      return `Too many sessions: this credential has ${perCredential} open, the cap (MAX_MCP_SESSIONS_PER_CREDENTIAL), and none is idle. End one (DELETE /mcp) or retry later.`;
    }
    if (this.countAll() >= this.total && !this.evictIdle(() => true, `the cap of ${this.total} sessions in all was reached`)) {
      return `Too many sessions: the gateway has ${this.total} open, the cap (MAX_MCP_SESSIONS_TOTAL), and none is idle. Retry later.`;
    }
    this.opening.set(credential, (this.opening.get(credential) ?? 0) + 1);
    return undefined;
  }

  /** The initialize that `reserve` made room for is over (its session is in `sessions`, or it failed). */
  opened(credential: string): void {
    const left = (this.opening.get(credential) ?? 1) - 1;
    if (left > 0) this.opening.set(credential, left);
    else this.opening.delete(credential);
  }

  /**
   * How long a session of `credential` may sit idle now: the full deadline while its credential
   * and the whole gateway are under half their caps, falling linearly to the least one at a cap.
   */
  idleDeadline(credential: string): number {
    const load = Math.max(this.countAll() / this.total, this.countOf(credential) / this.perCredential);
    if (load <= 0.5) return this.maxIdleMs;
    return Math.round(this.maxIdleMs - (this.maxIdleMs - this.minIdleMs) * Math.min(1, (load - 0.5) / 0.5));
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.sessions) {
      if (session.open === 0 && now - session.lastSeen > this.idleDeadline(session.credential)) this.end(id, session, "idle");
    }
  }

  private countOf(credential: string): number {
    let n = this.opening.get(credential) ?? 0;
    for (const s of this.sessions.values()) if (s.credential === credential) n += 1;
    return n;
  }

  private countAll(): number {
    let n = this.sessions.size;
    for (const pending of this.opening.values()) n += pending;
    return n;
  }

  /** Ends the least recently used idle session among `among`; false when every one is in use. */
  private evictIdle(among: (s: S) => boolean, why: string): boolean {
    let oldest: [string, S] | undefined;
    for (const entry of this.sessions) {
      const s = entry[1];
      if (s.open === 0 && among(s) && (!oldest || s.lastSeen < oldest[1].lastSeen)) oldest = entry;
    }
    if (oldest) this.end(oldest[0], oldest[1], why);
    return oldest !== undefined;
  }
}
