// The gateway's short path for the commonest message: one tools/call that asked for no progress.
// The SDK's transport answers every POST with an event stream built from web streams, which costs
// the gateway and the agent's client far more than the call itself; a call that will send nothing
// but its result can be answered with a plain JSON body (the spec allows either). Anything else —
// batches, progress tokens, other methods, odd headers, the 2026 wire era — takes the SDK's path.
//
// A call still running after a short while (a server asking its person, a slow tool) switches to
// an event stream, so headers go out at once and keep-alive comments stop clients and proxies from
// timing out an open call, as they do on the SDK's path.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ProtocolError, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult, type RequestId } from "@modelcontextprotocol/server";
import type { CallParams, ToolServer } from "./tool-server";
import { isPlainObject } from "../../shared/unknown-value";

/**
 * The revisions the SDK's transport accepts whose tools/call is a plain JSON-RPC request and
 * response: the initialize era, before the 2026-07-28 wire (revision ids are ISO dates).
 */
const LEGACY_REVISIONS = new Set(SUPPORTED_PROTOCOL_VERSIONS.filter((version) => version < "2026-07-28"));
/** How long a call may run before its answer turns into an event stream. */
const STREAM_AFTER_MS = 500;
/** As the SDK's transport: a comment every 15 s keeps an open stream alive. */
const KEEP_ALIVE_MS = 15_000;

export interface DirectCall {
  id: RequestId;
  params: CallParams;
}

/**
 * The call this POST carries when the short path may answer it, else undefined. The headers the
 * SDK would refuse (Accept, Content-Type, protocol version) are left for the SDK to refuse.
 */
export function directCall(req: IncomingMessage, body: unknown): DirectCall | undefined {
  if (!isPlainObject(body) || body.method !== "tools/call" || body.jsonrpc !== "2.0") return undefined;
  const { id, params } = body;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  if (!isPlainObject(params) || typeof params.name !== "string") return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  if (params._meta !== undefined && (!isPlainObject(params._meta) || params._meta.progressToken !== undefined)) return undefined;
  const version = req.headers["mcp-protocol-version"];
  if (typeof version !== "string" || !LEGACY_REVISIONS.has(version)) return undefined;
  const accept = req.headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) return undefined;
  return { id, params: params as unknown as CallParams };
}

/**
 * The ids of calls this message cancels (`notifications/cancelled`, alone or in a batch). The SDK
 * sees the notification too; for a call on the short path it is ours to act on.
 */
export function cancelledIds(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? body : [body];
  const ids: RequestId[] = [];
  for (const m of messages) {
    if (!isPlainObject(m) || m.method !== "notifications/cancelled" || !isPlainObject(m.params)) continue;
    const id = m.params.requestId;
    if (typeof id === "string" || typeof id === "number") ids.push(id);
  }
  return ids;
}

/** Runs the call and writes its JSON-RPC response, as JSON or (if it runs long) as an event stream. */
export async function serveDirectCall(tools: ToolServer, call: DirectCall, sessionId: string, res: ServerResponse): Promise<void> {
  let streaming = false;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const startStream = () => {
    if (streaming || res.destroyed || res.headersSent) return;
    streaming = true;
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "mcp-session-id": sessionId,
    });
    res.flushHeaders();
    keepAlive = setInterval(() => {
      if (!res.destroyed && !res.writableEnded) res.write(": keepalive\n\n");
    }, KEEP_ALIVE_MS);
  };
  const toStream = setTimeout(startStream, STREAM_AFTER_MS);
  // A notification for the call (a server's log message) turns the answer into an event stream.
  // What the tool server hands here (notifications, result, error) has passed its outbound.
  const notify = async (notification: { method: string; params: Record<string, unknown> }) => {
    startStream();
    if (!streaming || res.destroyed || res.writableEnded) return;
    res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", ...notification })}\n\n`);
  };

  let message: Record<string, unknown> | undefined;
  try {
    const result: CallToolResult = await tools.call(call.params, call.id, { notify });
    message = { jsonrpc: "2.0", id: call.id, result };
  } catch (error) {
    if (error instanceof ProtocolError) {
      message = { jsonrpc: "2.0", id: call.id, error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } };
    }
    // Otherwise the call was aborted (the agent cancelled or left, the session ended): a cancelled
    // request gets no response, so the stream just ends.
  } finally {
    clearTimeout(toStream);
    if (keepAlive !== undefined) clearInterval(keepAlive);
  }
  if (res.destroyed || res.writableEnded) return;
  if (streaming) {
    res.end(message ? `event: message\ndata: ${JSON.stringify(message)}\n\n` : undefined);
  } else if (message) {
    const text = JSON.stringify(message);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text), "mcp-session-id": sessionId });
    res.end(text);
  } else {
    // Cancelled before anything was sent: an empty event stream, as the SDK's path would give.
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "mcp-session-id": sessionId });
    res.end();
  }
}
