// What the tests of McpTool.execute read of a call: the text a page is shown of the server's
// CallToolResult (src/main/mcp/result.ts), as `{ output, isError }`. A rejected call rejects.
import type { CallToolResult } from "@modelcontextprotocol/client";
import { toToolOutput } from "../../src/main/mcp/result";
import type { ToolOutput } from "../../src/main/mcp/types";

export async function outputOf(call: Promise<CallToolResult>): Promise<ToolOutput> {
  return toToolOutput(await call);
}
