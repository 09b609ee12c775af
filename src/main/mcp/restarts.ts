// Restarts of failed servers (supervisor.ts): a failure schedules the next try by the server's
// RestartPolicy, or leaves it in `crash-loop`; the tries of servers that failed together take
// turns. What is shown ("restarting", attempt, next try) is annotated over the server's status.
import { ConcurrencyLimit } from "../base/concurrency";
import { MAX_CONCURRENT_CONNECTS } from "../../shared/limits";
import { RestartPolicy, type BackoffOptions } from "./restart-policy";
import { type RuntimeSource } from "./supervision";
import { errorMessage } from "../../shared/unknown-value";

export interface RestartsOptions {
  backoff: BackoffOptions;
  now: () => number;
  log: (line: string) => void;
  /** The supervisor closed: nothing is scheduled or restarted any more. */
  closed: () => boolean;
}

export interface Restarts {
  /** Reads the connection's own status after a change and acts on it. */
  settle(name: string): void;
  /** The server failed (or dropped): schedule its next try, or call it a crash loop. */
  failed(name: string, error: string): void;
  /** Forgets a server's failures, its pending try and what was shown over its status. */
  forget(name: string): void;
  /** Cancels every pending try (on close). */
  cancelAll(): void;
}

interface Watched {
  policy: RestartPolicy;
  timer?: ReturnType<typeof setTimeout>;
  lastError?: string;
  attempt?: number;
  /** In crash-loop: left alone until the person retries or the config changes. */
  stopped: boolean;
  /** A retry's connect in flight: its events are its own. */
  busy: boolean;
}

export function createRestarts(source: RuntimeSource, options: RestartsOptions): Restarts {
  const { backoff, now, log, closed } = options;
  const watched = new Map<string, Watched>();

  const entry = (name: string): Watched => {
    let found = watched.get(name);
    if (!found) watched.set(name, (found = { policy: new RestartPolicy(backoff), busy: false, stopped: false }));
    return found;
  };

  /** Set while the supervisor itself changes what is shown: those events are not news. */
  let quiet = 0;
  const forget = (name: string) => {
    const found = watched.get(name);
    if (found?.timer) clearTimeout(found.timer);
    watched.delete(name);
    quiet++;
    try {
      source.annotate(name, undefined);
    } finally {
      quiet--;
    }
  };

  /** The server failed (or dropped): schedule its next try, or call it a crash loop. */
  const failed = (name: string, error: string) => {
    const state = entry(name);
    if (state.timer || state.stopped || closed()) return;
    state.lastError = error;
    const step = state.policy.failed(now());
    state.attempt = step.attempt;
    if (step.action === "crash-loop") {
      // Set before annotating: the annotation's own status event must find this server settled.
      state.stopped = true;
      const minutes = Math.round(backoff.windowMs / 60_000);
      log(`MCP server "${name}" failed ${step.failures} times within ${minutes} min; not restarting it until you retry. Last error: ${error}`);
      source.annotate(name, { state: "crash-loop", attempt: step.attempt, error: `stopped after ${step.failures} failures in a row; last: ${error}`, nextRetryAt: undefined });
      return;
    }
    const nextRetryAt = now() + step.delayMs;
    state.timer = setTimeout(() => {
      state.timer = undefined;
      void retry(name).catch((e) => log(`MCP server "${name}": restart failed: ${errorMessage(e)}`));
    }, step.delayMs);
    state.timer.unref?.();
    log(`MCP server "${name}" failed: ${error}; restarting in ${step.delayMs / 1000} s (attempt ${step.attempt}).`);
    source.annotate(name, { state: "restarting", attempt: step.attempt, nextRetryAt, error });
  };

  // Servers that failed together (thousands of unreachable ones at start) come due together:
  // their restarts take turns, so their events reach the views a few at a time.
  const retries = new ConcurrencyLimit(MAX_CONCURRENT_CONNECTS);
  const retry = (name: string) =>
    retries.run(async () => {
      const current = source.connection(name);
      if (!current || closed()) return;
      const state = entry(name);
      state.busy = true;
      try {
        source.annotate(name, { state: "restarting", attempt: state.attempt, error: state.lastError });
        const fresh = await source.replace(current.config);
        await fresh.connect();
      } finally {
        state.busy = false;
      }
      settle(name);
    });

  /** Reads the connection's own status after a change and acts on it. */
  const settle = (name: string) => {
    if (closed() || quiet > 0) return;
    const connection = source.connection(name);
    if (!connection) return;
    const state = entry(name);
    if (state.busy || state.timer || state.stopped) return;
    const { state: raw, error } = connection.status;
    if (raw === "connected") {
      state.policy.connected(now());
      state.lastError = undefined;
      source.annotate(name, undefined);
    } else if (raw === "failed") {
      failed(name, error ?? "failed");
    }
  };

  return {
    settle,
    failed,
    forget,
    cancelAll() {
      for (const state of watched.values()) if (state.timer) clearTimeout(state.timer);
    },
  };
}
