// loadMcp: connects every configured server at once, exposes their tools under uniform names,
// and keeps one status per server. One server's failure never breaks the others
// (the Java seed's `McpSource.load(config, waitFor)`).
import type { ServerStatus } from "../../shared/types";
import { ConcurrencyLimit } from "../base/concurrency";
import { MAX_CONCURRENT_CONNECTS } from "../../shared/limits";
import type { ServerConfig } from "./config/config";
import { parseConfig } from "./config/parse";
import { ServerConnection } from "./connection/lifecycle";
import type { LoadOptions, McpBackend, McpSource, McpTool, SourceEvent } from "./types";
import { isLiveTask } from "../../shared/tasks";
import { memoryLedger, type TaskLedger } from "./tasks/ledger";
import { markRemovedServers } from "./tasks/resume";
import type { ListedTask } from "./tasks/legacy-wire";

/**
 * One server at a time, by name, at a cost that does not grow with the number of servers: what
 * the servers view (core.ts) reads when one server's event says it changed.
 */
export interface ServerIndex {
  /** Every server's name in the order servers() lists them. */
  serverNames(): string[];
  /** One server's status as servers() would show it. */
  serverStatus(name: string): ServerStatus | undefined;
  /** The tools `tools` lists for this server (a name another server took first is not). */
  toolsOf(name: string): McpTool[];
  /**
   * Other servers whose tool lists a tools change of `name` may change (a name both offer: the
   * first in config order keeps it). Costs the size of that server's tools, not of all servers.
   */
  sharingTools(name: string): string[];
}

interface ToolIndex {
  tools: McpTool[];
  owner: Map<string, ServerConnection>;
  clashing: Set<string>;
  /** Connections that had tools when this was built. */
  withTools: Set<ServerConnection>;
}

class Source implements McpSource, ServerIndex {
  private readonly listeners = new Set<(event: SourceEvent) => void>();
  private closed = false;
  /** Shown over a server's own status by the supervisor (restarting, attempt, next try). */
  private readonly overlays = new Map<string, Partial<ServerStatus>>();
  /** The connections by name: every event looks its server up, so this must not be a scan. */
  private readonly byName = new Map<string, ServerConnection>();
  private invalidByName = new Map<string, ServerStatus>();
  /** Built when read after a tools change; every server's list otherwise stays as it was. */
  private toolCache: ToolIndex | undefined;
  /** The last index built, kept past a change to tell whose lists the change touches. */
  private lastToolIndex: ToolIndex | undefined;

  constructor(
    private readonly connections: ServerConnection[],
    private invalid: ServerStatus[],
    /** Makes a connection for a server added or replaced at runtime (supervisor.ts). */
    private readonly make: (server: ServerConfig) => ServerConnection = () => {
      throw new Error("this source cannot add servers");
    },
    /** Where the tasks of every server are kept (LoadOptions.tasks). */
    private readonly ledger: TaskLedger = memoryLedger(),
  ) {
    for (const connection of connections) this.byName.set(connection.config.name, connection);
    this.indexInvalid();
  }

  private indexInvalid(): void {
    this.invalidByName = new Map(this.invalid.map((s) => [s.name, s]));
  }

  /** A server that had no tools and still has none (one more failed connect) changes no list. */
  private toolsMayHaveChanged(name: string): boolean {
    const index = this.toolCache;
    const connection = this.byName.get(name);
    return !index || !connection || connection.tools.length > 0 || index.withTools.has(connection);
  }

  private toolIndex() {
    if (this.toolCache) return this.toolCache;
    const owner = new Map<string, ServerConnection>();
    const clashing = new Set<string>();
    const tools: McpTool[] = [];
    const withTools = new Set<ServerConnection>();
    for (const connection of this.connections) {
      if (connection.tools.length > 0) withTools.add(connection);
      for (const tool of connection.tools) {
        // Two servers whose names sanitize alike must not shadow each other silently: first wins.
        const first = owner.get(tool.name);
        if (first) {
          clashing.add(first.config.name).add(connection.config.name);
          continue;
        }
        owner.set(tool.name, connection);
        tools.push(tool);
      }
    }
    return (this.toolCache = this.lastToolIndex = { tools, owner, clashing, withTools });
  }

  get tools(): McpTool[] {
    return [...this.toolIndex().tools];
  }

  toolsOf(name: string): McpTool[] {
    const connection = this.byName.get(name);
    if (!connection) return [];
    const { owner } = this.toolIndex();
    return connection.tools.filter((tool) => owner.get(tool.name) === connection);
  }

  sharingTools(name: string): string[] {
    // Read from the index as last built: what clashed then, and whom this server's new names hit.
    const index = this.lastToolIndex;
    if (!index) return [];
    const others = new Set<string>();
    if (index.clashing.has(name)) for (const other of index.clashing) others.add(other);
    for (const tool of this.byName.get(name)?.tools ?? []) {
      const owner = index.owner.get(tool.name)?.config.name;
      if (owner !== undefined) others.add(owner);
    }
    others.delete(name);
    return [...others];
  }

  serverNames(): string[] {
    return [...this.connections.map((c) => c.config.name), ...this.invalid.map((s) => s.name)];
  }

  serverStatus(name: string): ServerStatus | undefined {
    const connection = this.byName.get(name);
    if (connection) return { ...connection.status, ...this.overlays.get(name) };
    const invalid = this.invalidByName.get(name);
    return invalid ? { ...invalid } : undefined;
  }

  get status(): Record<string, ServerStatus["state"]> {
    return Object.fromEntries(this.servers().map((s) => [s.name, s.state]));
  }

  servers(): ServerStatus[] {
    return [...this.connections.map((c) => ({ ...c.status, ...this.overlays.get(c.config.name) })), ...this.invalid.map((s) => ({ ...s }))];
  }

  isClosed(): boolean {
    return this.closed;
  }

  backends(): McpBackend[] {
    return this.connections;
  }

  on(listener: (event: SourceEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: SourceEvent): void {
    if (this.closed) return;
    if (event.type === "tools-changed" && this.toolsMayHaveChanged(event.server)) this.toolCache = undefined;
    const overlay = event.type === "status" ? this.overlays.get(event.status.name) : undefined;
    if (event.type === "status" && overlay) event = { type: "status", status: { ...event.status, ...overlay } };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener's bug is its own.
      }
    }
  }

  // ---- runtime changes, one server at a time (supervisor.ts); the others are left alone ----

  connection(name: string): ServerConnection | undefined {
    return this.byName.get(name);
  }

  list(): ServerConnection[] {
    return [...this.connections];
  }

  /** A new server's connection, not yet connected (the caller connects it). */
  add(server: ServerConfig): ServerConnection {
    if (this.connection(server.name)) throw new Error(`server "${server.name}" already exists`);
    const connection = this.make(server);
    this.connections.push(connection);
    this.byName.set(server.name, connection);
    this.invalid = this.invalid.filter((s) => s.name !== server.name);
    this.indexInvalid();
    this.emit({ type: "status", status: { ...connection.status } });
    return connection;
  }

  /** Closes the server's connection (its questions are withdrawn) and puts a fresh one in its place. */
  async replace(server: ServerConfig): Promise<ServerConnection> {
    const index = this.connections.findIndex((c) => c.config.name === server.name);
    if (index < 0) return this.add(server);
    const old = this.connections[index];
    const connection = this.make(server);
    this.connections[index] = connection;
    this.byName.set(server.name, connection);
    this.toolCache = undefined;
    await old.close().catch(() => undefined);
    this.emit({ type: "tools-changed", server: server.name });
    this.emit({ type: "status", status: { ...connection.status } });
    return connection;
  }

  async remove(name: string): Promise<void> {
    const index = this.connections.findIndex((c) => c.config.name === name);
    this.overlays.delete(name);
    if (index < 0) return;
    const [old] = this.connections.splice(index, 1);
    this.byName.delete(name);
    this.toolCache = undefined;
    await old.close().catch(() => undefined);
    this.emit({ type: "tools-changed", server: name });
    // Its tasks can never be asked about again.
    markRemovedServers(this.ledger, (record) => this.emit({ type: "task", record }), new Set(this.serverNames()));
  }

  /** What a server still keeps of its tasks (2025-11-25 tasks/list), for the Tasks view; undefined when it cannot say. */
  async serverTasks(name: string, signal: AbortSignal): Promise<ListedTask[] | undefined> {
    const connection = this.byName.get(name);
    return connection?.status.state === "connected" ? connection.tasks.list(signal) : undefined;
  }

  async cancelTask(id: string): Promise<void> {
    const record = this.ledger.get(id);
    if (!record) throw new Error(`no task ${id}`);
    if (!isLiveTask(record.state)) throw new Error(`the task ${id} already ended (${record.state})`);
    const connection = this.byName.get(record.server);
    if (!connection || connection.status.state !== "connected") throw new Error(`the task's server "${record.server}" is not connected`);
    await connection.tasks.cancel(record);
  }

  setInvalid(invalid: ServerStatus[]): void {
    this.invalid = invalid.map((s) => ({ ...s }));
    this.indexInvalid();
    for (const s of invalid) this.emit({ type: "status", status: { ...s } });
  }

  /** Replaces (undefined: clears) what is shown over a server's own status. */
  annotate(name: string, patch: Partial<ServerStatus> | undefined): void {
    const connection = this.connection(name);
    if (patch) this.overlays.set(name, patch);
    else if (!this.overlays.delete(name)) return;
    if (connection) this.emit({ type: "status", status: { ...connection.status } });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.connections.map((c) => c.close()));
  }
}

/** The source startMcp returns: servers by name, changed one at a time (supervisor.ts). */
export type LiveSource = Source;

export interface StartedMcp {
  /** Usable at once: servers show `connecting` until each is connected or failed. */
  source: LiveSource;
  /** Settles when every server is connected or failed; never rejects. */
  ready: Promise<void>;
}

/**
 * Reads `config` (object or JSON text) and starts connecting every enabled server concurrently,
 * returning at once so an app can show itself while slow servers connect. Throws only for a
 * config that cannot be read at all.
 */
export function startMcp(config: unknown, loadOptions: LoadOptions = {}): StartedMcp {
  const parsed = parseConfig(config);
  // One ledger for every connection, so a task is found by its id whichever server runs it.
  const ledger = loadOptions.tasks ?? memoryLedger();
  const options: LoadOptions = { ...loadOptions, tasks: ledger };
  const invalid: ServerStatus[] = parsed.invalid.map(({ name, error }) => ({ name, state: "failed", error, toolCount: 0 }));
  let source: Source | undefined;
  // Every connect of this source, at start, on a restart or after a config edit, takes a slot.
  const connects = new ConcurrencyLimit(MAX_CONCURRENT_CONNECTS);
  const make = (server: ServerConfig): ServerConnection => {
    // Events of a connection that was replaced or removed are not the server's any more.
    const connection: ServerConnection = new ServerConnection(
      server,
      options,
      (what) => {
        if (source?.connection(server.name) !== connection) return;
        source.emit(what === "status" ? { type: "status", status: { ...connection.status } } : { type: "tools-changed", server: server.name });
      },
      (method, params) => {
        if (source?.connection(server.name) === connection) source.emit({ type: "notification", server: server.name, method, params });
      },
      // A task outlives the connection that started it: told whatever connection of the server it is.
      (record) => source?.emit({ type: "task", record }),
    );
    const connect = connection.connect.bind(connection);
    // One waiting its turn while the source closed, or the server was replaced, has nothing to do.
    connection.connect = () => connects.run(() => (source?.isClosed() || source?.connection(server.name) !== connection ? Promise.resolve() : connect()));
    return connection;
  };
  const connections = parsed.servers.map(make);
  source = new Source(connections, invalid, make, ledger);
  // Tasks left live by a previous run for servers no longer configured are gone.
  markRemovedServers(ledger, (record) => source?.emit({ type: "task", record }), new Set([...parsed.servers, ...parsed.invalid].map((s) => s.name)));
  for (const { error } of parsed.invalid) options.log?.(error);
  // A failed connect is in its status; it is logged once, by the supervisor that restarts it.
  const ready = Promise.all(connections.map((c) => c.connect())).then(() => undefined);
  return { source, ready };
}

/**
 * Reads `config` (object or JSON text), connects every enabled server concurrently, and resolves
 * once each is connected or failed. Throws only for a config that cannot be read at all.
 */
export async function loadMcp(config: unknown, options: LoadOptions = {}): Promise<McpSource> {
  const signal = options.signal;
  if (signal?.aborted) throw signal.reason ?? new Error("loading MCP servers was aborted");
  const { source, ready } = startMcp(config, options);
  if (!signal) {
    await ready;
    return source;
  }
  const aborted = new Promise<never>((_, reject) =>
    signal.addEventListener("abort", () => reject(signal.reason ?? new Error("loading MCP servers was aborted")), { once: true }),
  );
  try {
    await Promise.race([ready, aborted]);
  } catch (error) {
    await source.close();
    throw error;
  }
  return source;
}

export type { McpSource, McpTool, LoadOptions } from "./types";
