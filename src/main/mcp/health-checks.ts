// Health checks of connected remote servers (supervisor.ts): a remote connection can drop without
// the client noticing until the next call, so each is checked on an interval with the request its
// negotiated era has (a 2026-07-28 server has no ping; era.ts).
import { isLiveRefusal } from "./connection/era";
import { type RuntimeSource } from "./supervision";
import { errorMessage } from "../../shared/unknown-value";

export interface HealthCheckOptions {
  /** How often (0: never). */
  intervalMs: number;
  /** How long a check may take before the connection counts as dropped. */
  timeoutMs: number;
  closed: () => boolean;
  /** The connection dropped; it has been replaced by a new, unconnected one. */
  dropped: (name: string, why: string) => void;
}

/** Starts the checks; returns the interval to clear on close (undefined when never). */
export function startHealthChecks(source: RuntimeSource, options: HealthCheckOptions): ReturnType<typeof setInterval> | undefined {
  const { intervalMs, timeoutMs, closed } = options;
  if (intervalMs <= 0) return undefined;
  const pinging = new Set<string>();
  const timer = setInterval(() => {
    for (const connection of source.list()) {
      const name = connection.config.name;
      if (connection.config.type !== "remote" || connection.status.state !== "connected" || pinging.has(name)) continue;
      pinging.add(name);
      const abort = new AbortController();
      const timeout = setTimeout(() => abort.abort(new Error(`no answer to ping within ${timeoutMs} ms`)), timeoutMs);
      connection
        .checkHealth(abort.signal)
        .then(
          () => undefined,
          async (error) => {
            if (closed() || source.connection(name) !== connection || connection.status.state !== "connected") return;
            // A server that answers with a JSON-RPC error (no ping handler), or a request
            // its era lacks, is alive: neither is a dropped connection.
            if (!abort.signal.aborted && isLiveRefusal(error)) return;
            const why = abort.signal.aborted ? errorMessage(abort.signal.reason) : errorMessage(error);
            // The old connection goes now, so its tools and questions go with it.
            await source.replace(connection.config);
            options.dropped(name, `the connection dropped (${why})`);
          },
        )
        .finally(() => {
          clearTimeout(timeout);
          pinging.delete(name);
        });
    }
  }, intervalMs);
  timer.unref?.();
  return timer;
}
