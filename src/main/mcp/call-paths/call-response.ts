// What the raw tools/call paths (http-fast-call.ts over HTTP, raw-call.ts over stdio) share: the
// server's JSON-RPC response read as the SDK client would read it, and an abort's reason as an Error.
import { ProtocolError } from "@modelcontextprotocol/client";

type Message = Record<string, unknown>;

/** A response to tools/call: its result object, or the error to reject with (the SDK's ProtocolError for a JSON-RPC error). */
export function callResponse(response: Message): Message | Error {
  if (response.error !== undefined) {
    const e = response.error as { code?: unknown; message?: unknown; data?: unknown };
    return ProtocolError.fromError(typeof e.code === "number" ? e.code : -32603, String(e.message ?? "error"), e.data);
  }
  if (typeof response.result === "object" && response.result !== null && !Array.isArray(response.result)) return response.result as Message;
  return new Error("the server's answer to tools/call had no result object");
}

/** Why a signal was aborted, as the Error a waiting call rejects with. */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason ?? "aborted"));
}
