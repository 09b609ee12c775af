// JSON-RPC error bodies for the HTTP layer of /mcp: agents parse these, so refusals on the
// endpoint speak the protocol's shape, not plain text.
import type { ServerResponse } from "node:http";

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
/** The code the SDK's own transport uses for refused connections and unknown sessions. */
export const CONNECTION_REFUSED = -32000;
export const SESSION_NOT_FOUND = -32001;

export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
