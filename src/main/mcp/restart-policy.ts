// How often a failing server is tried again: exponential backoff, forgotten once it stays up, and
// a crash loop (no more tries until the person asks) when it keeps failing.

export interface BackoffOptions {
  /** First wait after a failure. */
  initialMs: number;
  /** Longest wait between tries. */
  maxMs: number;
  /** Up this long, a server's earlier failures are forgotten. */
  stableMs: number;
  /** This many failures within `windowMs` is a crash loop: no more tries until the person asks. */
  crashLoopFailures: number;
  windowMs: number;
}

/**
 * 1 s, 2 s, 4 s … at most 60 s; a server up for a minute starts afresh. Five failures in five
 * minutes is not bad luck: trying forever would only spin a broken command and fill the log.
 */
export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 60_000, stableMs: 60_000, crashLoopFailures: 5, windowMs: 5 * 60_000 };

export type NextStep = { action: "retry"; attempt: number; delayMs: number } | { action: "crash-loop"; attempt: number; failures: number };

/** The restart policy of one server, as a pure state machine over times (unit-tested alone). */
export class RestartPolicy {
  private failures: number[] = [];
  private attempt = 0;
  private upSince?: number;

  constructor(private readonly options: BackoffOptions = DEFAULT_BACKOFF) {}

  connected(now: number): void {
    this.upSince = now;
  }

  failed(now: number): NextStep {
    if (this.upSince !== undefined && now - this.upSince >= this.options.stableMs) this.reset();
    this.upSince = undefined;
    this.failures = [...this.failures.filter((t) => now - t < this.options.windowMs), now];
    this.attempt += 1;
    if (this.failures.length >= this.options.crashLoopFailures) return { action: "crash-loop", attempt: this.attempt, failures: this.failures.length };
    const delayMs = Math.min(this.options.maxMs, this.options.initialMs * 2 ** (this.attempt - 1));
    return { action: "retry", attempt: this.attempt, delayMs };
  }

  reset(): void {
    this.failures = [];
    this.attempt = 0;
    this.upSince = undefined;
  }
}
