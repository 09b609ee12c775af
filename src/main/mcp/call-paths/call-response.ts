// What the raw tools/call paths (http-fast.ts over HTTP, stdio-raw.ts over stdio) share: which
// calls they take, the server's JSON-RPC response read as the SDK client would read it, the
// SDK's wall-clock maximum and its notifications/cancelled for a call given up.
import { ProtocolError, type Client } from "@modelcontextprotocol/client";
import { LinkedAbort } from "../../base/linked-abort";
import { errorMessage } from "../../../shared/unknown-value";
import { ToolCallError, type CallOptions, type CallPath } from "./call-path";

type Message = Record<string, unknown>;

/** What a raw path is built with, besides its wire. */
export interface RawSetting {
  /** The configured server name, for the error of a call past maxWait. */
  server: string;
  /** The longest a call may take in all (LoadOptions.maxWaitMs): the SDK's hard maximum. */
  maxWait: number;
  /** The connected client: told when a call is given up, and the SDK path's way to the server. */
  client: Pick<Client, "notification">;
  /** Whether a tool's calls may skip the SDK: not one with an output schema, which the SDK checks. */
  plain(tool: string): boolean;
  /** The path for every call the raw path does not take. */
  sdk: CallPath;
}

/** Whether a raw path takes this call: a plain one (no progress asked for, a tool without an output schema). */
export function takesRaw(setting: RawSetting, tool: string, options: CallOptions | undefined): boolean {
  return options?.progressToken === undefined && setting.plain(tool);
}

/**
 * One raw call under the SDK's wall-clock maximum (the connection's idle timer does the everyday
 * bounding). `send` puts it on the wire under the signal given, which also follows the caller's;
 * a call that is aborted is told to the server, as the SDK does for a request it gives up on.
 */
export async function guardedCall<T>(
  setting: RawSetting,
  tool: string,
  caller: AbortSignal,
  send: (signal: AbortSignal) => { id: string; result: Promise<T> },
): Promise<T> {
  const abort = new LinkedAbort([caller]);
  const signal = abort.signal;
  const hardStop = setTimeout(() => abort.abort(new ToolCallError(`${setting.server}: ${tool} did not finish within ${setting.maxWait} ms`)), setting.maxWait);
  let id: string | undefined;
  try {
    const sent = send(signal);
    id = sent.id;
    return await sent.result;
  } catch (error) {
    // The server may stop working on it.
    if (signal.aborted && id !== undefined) {
      const reason = errorMessage(signal.reason);
      void setting.client.notification({ method: "notifications/cancelled", params: { requestId: id, reason } }).catch(() => {});
    }
    throw error;
  } finally {
    clearTimeout(hardStop);
    // The wire took its listener off when the call settled: an unaborted signal is reused.
    abort.release();
  }
}

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
