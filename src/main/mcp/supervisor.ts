// Keeps servers running: a stdio server that exits, or a remote one that stops answering, is
// started again with exponential backoff; one that keeps failing is left in `crash-loop` until the
// person retries. With a config path, edits to the file are applied live (config-watch.ts), each
// server started, stopped or restarted on its own while the others keep their connections.
import type { ServerStatus } from "../../shared/types";
import { readConfigFile } from "./config/file";
import type { ServerConfig } from "./config/config";
import { parseConfig } from "./config/parse";
import { diffServers, watchConfig, type ConfigWatch } from "./config/watch";
import type { ServerConnection } from "./connection/connection";
import { isLiveRefusal } from "./connection/era";
import { askAgain } from "./config/inputs";
import { ConcurrencyLimit } from "../base/concurrency";
import { MAX_CONCURRENT_CONNECTS } from "../../shared/limits";
import type { McpSource } from "./types";

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

/** What the supervisor needs of the source: its connections, changed one server at a time (source.ts). */
export interface RuntimeSource extends McpSource {
  connection(name: string): ServerConnection | undefined;
  list(): ServerConnection[];
  /** A new connection for `server`, not yet connected. */
  add(server: ServerConfig): ServerConnection;
  /** Closes the old connection (withdrawing its questions) and puts a new, unconnected one in its place. */
  replace(server: ServerConfig): Promise<ServerConnection>;
  remove(name: string): Promise<void>;
  /** Config entries that could not be read, shown as failed servers. */
  setInvalid(invalid: ServerStatus[]): void;
  /** Fields shown over a server's own status (restarting, attempt, next try); undefined clears. */
  annotate(name: string, patch: Partial<ServerStatus> | undefined): void;
}

export interface SuperviseOptions {
  /** The config file to watch; without it only restarts happen. */
  configPath?: string;
  /** The config error core found at start, shown until an edit fixes it. */
  initialError?: string;
  backoff?: Partial<BackoffOptions>;
  /**
   * How often a connected remote server gets a health check to notice a dropped connection (0:
   * never): `ping`, or what its era offers instead (era.ts).
   */
  pingIntervalMs?: number;
  /** How long a ping may take before the connection counts as dropped. */
  pingTimeoutMs?: number;
  /** Quiet time after the last file event before the config is read (editors write in bursts). */
  debounceMs?: number;
  log?: (line: string) => void;
  /** Each config read that is applied (core registers its secrets with the scrubber). */
  onConfig?: (config: unknown) => void;
  /** Called when the whole-file error appears or clears, after the servers' own events. */
  onConfigError?: (error: string | undefined) => void;
  now?: () => number;
}

export interface Supervisor {
  /** The person's "Restart" / "Retry": forgets earlier failures and starts the server now. */
  restart(name: string): Promise<void>;
  /** Runs a server that is not in the config (the demo of the first run); the config's own wins. */
  startExtra(server: ServerConfig): Promise<void>;
  /** Stops a server startExtra runs; false when none of that name runs (the config's own is left alone). */
  stopExtra(name: string): Promise<boolean>;
  /** The config file's error (line and column) while the last good config is kept, else undefined. */
  configError(): string | undefined;
  /** Resolves after the pending config read (if any) has been applied: tests and the CLI's wait. */
  settled(): Promise<void>;
  close(): Promise<void>;
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

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function superviseSource(source: RuntimeSource, options: SuperviseOptions = {}): Supervisor {
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const now = options.now ?? Date.now;
  const log = (line: string) => options.log?.(line);
  const pingIntervalMs = options.pingIntervalMs ?? 30_000;
  const pingTimeoutMs = options.pingTimeoutMs ?? 10_000;
  const watched = new Map<string, Watched>();
  const extras = new Set<string>();
  let configError = options.initialError;
  let closed = false;
  let applying: Promise<void> = Promise.resolve();

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
    if (state.timer || state.stopped || closed) return;
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
      if (!current || closed) return;
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
    if (closed || quiet > 0) return;
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

  const unsubscribe = source.on((event) => {
    if (event.type === "status") settle(event.status.name);
  });
  // Servers that failed before supervision began.
  for (const connection of source.list()) if (connection.status.state === "failed") settle(connection.config.name);

  // A remote connection can drop without the client noticing until the next call: check it, with
  // the request its negotiated era has (a 2026-07-28 server has no ping).
  const pinging = new Set<string>();
  const pingTimer =
    pingIntervalMs > 0
      ? setInterval(() => {
          for (const connection of source.list()) {
            const name = connection.config.name;
            if (connection.config.type !== "remote" || connection.status.state !== "connected" || pinging.has(name)) continue;
            pinging.add(name);
            const abort = new AbortController();
            const timer = setTimeout(() => abort.abort(new Error(`no answer to ping within ${pingTimeoutMs} ms`)), pingTimeoutMs);
            connection
              .checkHealth(abort.signal)
              .then(
                () => undefined,
                async (error) => {
                  if (closed || source.connection(name) !== connection || connection.status.state !== "connected") return;
                  // A server that answers with a JSON-RPC error (no ping handler), or a request
                  // its era lacks, is alive: neither is a dropped connection.
                  if (!abort.signal.aborted && isLiveRefusal(error)) return;
                  const why = abort.signal.aborted ? errorMessage(abort.signal.reason) : errorMessage(error);
                  // The old connection goes now, so its tools and questions go with it.
                  await source.replace(connection.config);
                  failed(name, `the connection dropped (${why})`);
                },
              )
              .finally(() => {
                clearTimeout(timer);
                pinging.delete(name);
              });
          }
        }, pingIntervalMs)
      : undefined;
  pingTimer?.unref?.();

  const setConfigError = (error: string | undefined) => {
    if (error === configError) return;
    configError = error;
    options.onConfigError?.(error);
  };

  /** Applies a config read: only the servers whose entries changed are touched. */
  const apply = async (config: unknown) => {
    let parsed;
    try {
      parsed = parseConfig(config);
    } catch (error) {
      const message = errorMessage(error);
      log(`config: ${message}; keeping the servers as they were.`);
      setConfigError(message);
      return;
    }
    options.onConfig?.(config);
    const before = source.list().filter((c) => !extras.has(c.config.name) || parsed.servers.some((s) => s.name === c.config.name)).map((c) => c.config);
    const diff = diffServers(before, parsed.servers);
    for (const name of diff.removed) {
      forget(name);
      extras.delete(name);
      await source.remove(name);
      log(`config: "${name}" removed; stopped it.`);
    }
    const starts: Promise<void>[] = [];
    for (const server of diff.changed) {
      forget(server.name);
      extras.delete(server.name);
      const fresh = await source.replace(server);
      log(`config: "${server.name}" changed; restarting it.`);
      starts.push(fresh.connect());
    }
    for (const server of diff.added) {
      const fresh = source.add(server);
      log(`config: "${server.name}" added; starting it.`);
      starts.push(fresh.connect());
    }
    source.setInvalid(parsed.invalid.map(({ name, error }) => ({ name, state: "failed", error, toolCount: 0 })));
    for (const { error } of parsed.invalid) log(`config: ${error}`);
    setConfigError(undefined);
    // Started in the background: a slow server must not hold back the next edit.
    void Promise.all(starts).catch(() => undefined);
  };

  const reload = () => {
    if (!options.configPath) return;
    const path = options.configPath;
    applying = applying.then(async () => {
      if (closed) return;
      const read = await readConfigFile(path);
      if (read.error) {
        log(`config: ${read.error}; keeping the servers as they were.`);
        setConfigError(read.error);
        return;
      }
      if (read.note) {
        // A missing or emptied file: an editor mid-save, or a person who wants no servers.
        log(read.note);
      }
      await apply(read.config);
    });
  };

  let watch: ConfigWatch | undefined;
  if (options.configPath) {
    watch = watchConfig(options.configPath, { debounceMs: options.debounceMs ?? 250, onChange: reload, log });
  }

  return {
    async restart(name) {
      const connection = source.connection(name);
      if (!connection) throw new Error(`no server named "${name}"`);
      forget(name);
      askAgain(connection.config);
      const fresh = await source.replace(connection.config);
      log(`MCP server "${name}": restarting (asked by the person).`);
      await fresh.connect();
    },
    async startExtra(server) {
      if (source.connection(server.name)) {
        if (!extras.has(server.name)) return; // the config's own server of that name wins
        const current = source.connection(server.name)!;
        if (current.status.state === "connected") return;
        await this.restart(server.name);
        return;
      }
      extras.add(server.name);
      await source.add(server).connect();
    },
    async stopExtra(name) {
      if (!extras.has(name) || !source.connection(name)) return false;
      extras.delete(name);
      forget(name);
      await source.remove(name);
      log(`MCP server "${name}": stopped for this session (asked by the person).`);
      return true;
    },
    configError: () => configError,
    settled: async () => {
      await watch?.flush();
      await applying;
    },
    async close() {
      closed = true;
      unsubscribe();
      if (pingTimer) clearInterval(pingTimer);
      for (const state of watched.values()) if (state.timer) clearTimeout(state.timer);
      watch?.close();
      await applying.catch(() => undefined);
    },
  };
}
