// Keeps servers running: a stdio server that exits, or a remote one that stops answering, is
// started again with exponential backoff; one that keeps failing is left in `crash-loop` until the
// person retries. With a config path, edits to the file are applied live (config-watch.ts), each
// server started, stopped or restarted on its own while the others keep their connections.
// Its parts: restart-policy.ts (when to try again), restarts.ts (the tries), health-checks.ts
// (remote servers that drop), config-apply.ts (an edit applied).
import { readConfigFile } from "./config/file";
import type { ServerConfig } from "./config/config";
import { watchConfig, type ConfigWatch } from "./config/watch";
import { askAgain } from "./config/inputs";
import { applyConfig } from "./config-apply";
import { startHealthChecks } from "./health-checks";
import { DEFAULT_BACKOFF, type BackoffOptions } from "./restart-policy";
import { createRestarts } from "./restarts";
import type { RuntimeSource } from "./supervision";

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

export function superviseSource(source: RuntimeSource, options: SuperviseOptions = {}): Supervisor {
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const now = options.now ?? Date.now;
  const log = (line: string) => options.log?.(line);
  const extras = new Set<string>();
  let configError = options.initialError;
  let closed = false;
  let applying: Promise<void> = Promise.resolve();

  const restarts = createRestarts(source, { backoff, now, log, closed: () => closed });
  const { forget } = restarts;
  const unsubscribe = source.on((event) => {
    if (event.type === "status") restarts.settle(event.status.name);
  });
  // Servers that failed before supervision began.
  for (const connection of source.list()) if (connection.status.state === "failed") restarts.settle(connection.config.name);

  const pingTimer = startHealthChecks(source, {
    intervalMs: options.pingIntervalMs ?? 30_000,
    timeoutMs: options.pingTimeoutMs ?? 10_000,
    closed: () => closed,
    dropped: restarts.failed,
  });

  const setConfigError = (error: string | undefined) => {
    if (error === configError) return;
    configError = error;
    options.onConfigError?.(error);
  };
  const apply = (config: unknown) => applyConfig({ source, extras, forget, log, onConfig: options.onConfig, setConfigError }, config);

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
      restarts.cancelAll();
      watch?.close();
      await applying.catch(() => undefined);
    },
  };
}
