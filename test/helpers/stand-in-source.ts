// A hand-made McpSource for unit tests of the api layer only; integration tests use loadMcp.
import type { McpSource, McpTool, SourceEvent } from "../../src/main/mcp/types";
import type { ServerStatus } from "../../src/shared/types";

export function standInSource(tools: Array<Pick<McpTool, "name" | "server" | "tool" | "execute"> & Partial<McpTool>> = []) {
  const listeners = new Set<(event: SourceEvent) => void>();
  const full: McpTool[] = tools.map((t) => ({ description: "", inputSchema: { type: "object" }, source: "mcp", ...t }));
  let statuses: ServerStatus[] = [{ name: "demo", state: "connected", toolCount: full.length, transport: "stdio" }];
  const source: McpSource & { emit(event: SourceEvent): void; setStatuses(s: ServerStatus[]): void; closed: boolean } = {
    tools: full,
    get status() {
      return Object.fromEntries(statuses.map((s) => [s.name, s.state]));
    },
    servers: () => statuses,
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      source.closed = true;
    },
    emit(event) {
      for (const l of listeners) l(event);
    },
    setStatuses(s) {
      statuses = s;
    },
    closed: false,
  };
  return source;
}
