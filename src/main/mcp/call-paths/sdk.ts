// tools/call through the SDK client: every era, progress, a tool's output schema checked against
// its result, and sign-in or a lost session recovered by the client's transport.
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import type { CallPath } from "./call-path";

export function sdkPath(client: Client, maxWait: number): CallPath {
  return {
    kind: "sdk",
    call: (tool, args, signal, options = {}) =>
      client.callTool(
        { name: tool, arguments: args, ...(options.progressToken !== undefined ? { _meta: { progressToken: options.progressToken } } : {}) },
        {
          signal,
          // The connection's idle timer bounds the call; the SDK's wall-clock bound is only the hard maximum.
          timeout: maxWait,
          maxTotalTimeout: maxWait,
        },
      ) as Promise<CallToolResult>,
    close: () => {},
  };
}
