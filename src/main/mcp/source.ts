// loadMcp: connects every configured server at once, exposes their tools under uniform names,
// and keeps one status per server. One server's failure never breaks the others
// (the Java seed's `McpSource.load(config, waitFor)`).
import type { ServerStatus } from "../../shared/types";
import { parseConfig } from "./config";
import { ServerConnection } from "./connection";
import type { LoadOptions, McpSource, McpTool, SourceEvent } from "./types";

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

/**
 * Reads `config` (object or JSON text), connects every enabled server concurrently, and resolves
 * once each is connected or failed. Throws only for a config that cannot be read at all.
 */
export async function loadMcp(config: unknown, options: LoadOptions = {}): Promise<McpSource> {
  const parsed = parseConfig(config);
  const invalid: ServerStatus[] = parsed.invalid.map(({ name, error }) => ({ name, state: "failed", error, toolCount: 0 }));
  let source: Source | undefined;
  const connections = parsed.servers.map(
    (server) =>
      new ServerConnection(server, options, (what) => {
        const connection = connections.find((c) => c.config === server)!;
        source?.emit(what === "status" ? { type: "status", status: { ...connection.status } } : { type: "tools-changed", server: server.name });
      }),
  );
  source = new Source(connections, invalid);
  for (const { error } of parsed.invalid) options.log?.(error);

  const signal = options.signal;
  const connecting = Promise.all(connections.map((c) => c.connect()));
  if (signal) {
    if (signal.aborted) {
      await source.close();
      throw signal.reason ?? new Error("loading MCP servers was aborted");
    }
    const aborted = new Promise<never>((_, reject) =>
      signal.addEventListener("abort", () => reject(signal.reason ?? new Error("loading MCP servers was aborted")), { once: true }),
    );
    try {
      await Promise.race([connecting, aborted]);
    } catch (error) {
      await source.close();
      throw error;
    }
  } else {
    await connecting;
  }
  for (const s of source.servers()) {
    if (s.state === "failed") options.log?.(`MCP server "${s.name}" failed: ${s.error}`);
  }
  return source;
}

export type { McpSource, McpTool, LoadOptions } from "./types";
