// loadMcp: connects every configured server at once, exposes their tools under uniform names,
// and keeps one status per server. One server's failure never breaks the others
// (the Java seed's `McpSource.load(config, waitFor)`).
import type { ServerStatus } from "../../shared/types";
import { parseConfig, type ServerConfig } from "./config";
import { ServerConnection } from "./connection";
import type { LoadOptions, McpBackend, McpSource, McpTool, SourceEvent } from "./types";

class Source implements McpSource {
  private readonly listeners = new Set<(event: SourceEvent) => void>();
  private closed = false;
  /** Shown over a server's own status by the supervisor (restarting, attempt, next try). */
  private readonly overlays = new Map<string, Partial<ServerStatus>>();

  constructor(
    private readonly connections: ServerConnection[],
    private invalid: ServerStatus[],
    /** Makes a connection for a server added or replaced at runtime (supervisor.ts). */
    private readonly make: (server: ServerConfig) => ServerConnection = () => {
      throw new Error("this source cannot add servers");
    },
  ) {}

  get tools(): McpTool[] {
    const seen = new Set<string>();
    const tools: McpTool[] = [];
    for (const connection of this.connections) {
      for (const tool of connection.tools) {
        // Two servers whose names sanitize alike must not shadow each other silently: first wins.
        if (seen.has(tool.name)) continue;
        seen.add(tool.name);
        tools.push(tool);
      }
    }
    return tools;
  }

  get status(): Record<string, ServerStatus["state"]> {
    return Object.fromEntries(this.servers().map((s) => [s.name, s.state]));
  }

  servers(): ServerStatus[] {
    return [...this.connections.map((c) => ({ ...c.status, ...this.overlays.get(c.config.name) })), ...this.invalid.map((s) => ({ ...s }))];
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
    return this.connections.find((c) => c.config.name === name);
  }

  list(): ServerConnection[] {
    return [...this.connections];
  }

  /** A new server's connection, not yet connected (the caller connects it). */
  add(server: ServerConfig): ServerConnection {
    if (this.connection(server.name)) throw new Error(`server "${server.name}" already exists`);
    const connection = this.make(server);
    this.connections.push(connection);
    this.invalid = this.invalid.filter((s) => s.name !== server.name);
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
    await old.close().catch(() => undefined);
    this.emit({ type: "tools-changed", server: name });
  }

  setInvalid(invalid: ServerStatus[]): void {
    this.invalid = invalid.map((s) => ({ ...s }));
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

export interface StartedMcp {
  /** Usable at once: servers show `connecting` until each is connected or failed. */
  source: McpSource;
  /** Settles when every server is connected or failed; never rejects. */
  ready: Promise<void>;
}

/**
 * Reads `config` (object or JSON text) and starts connecting every enabled server concurrently,
 * returning at once so an app can show itself while slow servers connect. Throws only for a
 * config that cannot be read at all.
 */
export function startMcp(config: unknown, options: LoadOptions = {}): StartedMcp {
  const parsed = parseConfig(config);
  const invalid: ServerStatus[] = parsed.invalid.map(({ name, error }) => ({ name, state: "failed", error, toolCount: 0 }));
  let source: Source | undefined;
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
    );
    return connection;
  };
  const connections = parsed.servers.map(make);
  source = new Source(connections, invalid, make);
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
