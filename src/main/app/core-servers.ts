// The core's MCP servers: started from the config (each connecting in the background), their
// views for the pages (scrubbed once per view by the egress), the servers:changed event, and the
// supervisor that keeps a config file's servers running and follows the file's edits.
import type { ServerView } from "../../shared/types";
import { SERVERS_EVENT_INTERVAL_MS } from "../../shared/limits";
import { startMcp, type LiveSource, type LoadOptions, type StartedMcp } from "../mcp/source";
import { superviseSource, type Supervisor } from "../mcp/supervisor";
import { type RuntimeSource } from "../mcp/supervision";
import { listChangeNotifier, ServerViews } from "../mcp/server-views";
import type { EventHub } from "./core-events";
import type { Egress } from "./egress";

export interface ServerStart {
  config: unknown;
  /** The config file's error as read (it could not be read or parsed). */
  configError?: string;
  /** Set when the servers come from a file: the supervisor watches it. */
  configPath?: string;
  load: LoadOptions;
  egress: Egress;
  events: EventHub;
  log: (line: string) => void;
  /** Each config read from the file that is applied (core registers its secrets, reads its settings). */
  onConfig: (config: unknown) => void;
}

export interface ServerParts {
  source: LiveSource;
  /** Settles once every server is connected or failed. */
  ready: Promise<void>;
  supervisor?: Supervisor;
  /** The config's error at start (also one startMcp refused the config with). */
  configError?: string;
  /** The servers view, scrubbed. */
  servers(): ServerView[];
  /** Stops the supervisor and every server (a failure is logged). */
  close(): Promise<void>;
  /** Stops the events about them (after close, so the views hear their last states). */
  stopEvents(): void;
}

export function startServers(start: ServerStart): ServerParts {
  const { egress, events, log } = start;
  let configError = start.configError;
  let started: StartedMcp;
  try {
    started = startMcp(start.config, start.load);
  } catch (error) {
    configError = (error as Error).message;
    started = startMcp({}, start.load);
  }
  const { source, ready } = started;
  let supervisor: Supervisor | undefined;
  // One server's event recomputes that server's view only, and the list goes out at most every
  // SERVERS_EVENT_INTERVAL_MS however many servers change: start-up with thousands of servers
  // must not cost each event a walk (and a scrub) of all of them.
  const views = new ServerViews({
    source,
    configError: () => (supervisor ? supervisor.configError() : configError),
    ...egress.views,
  });
  const serversChanged = listChangeNotifier({
    intervalMs: SERVERS_EVENT_INTERVAL_MS,
    listening: () => events.listening("servers:changed"),
    send: () => events.emitScrubbed("servers:changed", views.list()),
  });
  // From the start, so no kept view misses its server's event.
  const offServerEvents = source.on((event) => {
    if (event.type === "notification" || event.type === "task") return;
    if (event.type === "status") views.invalidate(event.status.name);
    else views.invalidateTools(event.server);
    serversChanged.changed();
  });
  // Servers from a config file are kept running and follow its edits (mcp/supervisor.ts).
  supervisor = start.configPath
    ? superviseSource(source as RuntimeSource, { configPath: start.configPath, initialError: configError, log, onConfig: start.onConfig, onConfigError: () => serversChanged.changed() })
    : undefined;
  return {
    source,
    ready,
    supervisor,
    configError,
    servers: () => views.list(),
    async close() {
      try {
        await supervisor?.close();
        await source.close();
      } catch (error) {
        log(`mcp: close failed: ${(error as Error).message}`);
      }
    },
    stopEvents() {
      offServerEvents();
      serversChanged.close();
    },
  };
}
