// loadMcp: connects every configured server at once, exposes their tools under uniform names,
// and keeps one status per server. One server's failure never breaks the others
// (the Java seed's `McpSource.load(config, waitFor)`).
import type { ServerStatus } from "../../shared/types";
import { parseConfig } from "./config";
import { ServerConnection } from "./connection";
import type { LoadOptions, McpBackend, McpSource, McpTool, SourceEvent } from "./types";

class Source implements McpSource {
  private readonly listeners = new Set<(event: SourceEvent) => void>();
  private closed = false;

  constructor(
    private readonly connections: ServerConnection[],
    private readonly invalid: ServerStatus[],
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
    return [...this.connections.map((c) => ({ ...c.status })), ...this.invalid.map((s) => ({ ...s }))];
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
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener's bug is its own.
      }
    }
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
  const connections = parsed.servers.map(
    (server) =>
      new ServerConnection(
        server,
        options,
        (what) => {
          const connection = connections.find((c) => c.config === server)!;
          source?.emit(what === "status" ? { type: "status", status: { ...connection.status } } : { type: "tools-changed", server: server.name });
        },
        (method, params) => source?.emit({ type: "notification", server: server.name, method, params }),
      ),
  );
  source = new Source(connections, invalid);
  for (const { error } of parsed.invalid) options.log?.(error);
  const ready = Promise.all(
    connections.map(async (c) => {
      await c.connect();
      if (c.status.state === "failed") options.log?.(`MCP server "${c.status.name}" failed: ${c.status.error}`);
    }),
  ).then(() => undefined);
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
