// One way a tools/call reaches a server. A connection picks its path once, when it connects
// (choose.ts): the SDK client's callTool (sdk.ts), or, on the legacy era, a raw path that skips
// the SDK client for a plain call — a POST of our own over streamable HTTP (http-fast.ts) or a
// line on the stdio pipe (stdio-raw.ts). A raw path hands the calls it does not take (progress
// asked for, a tool with an output schema, a refusal the SDK recovers from) to the SDK path it
// was built with, so the connection always calls the one path it picked.
import type { CallToolResult } from "@modelcontextprotocol/client";

export interface CallOptions {
  /** The progress token the call sends; a call that asks for progress takes the SDK's path. */
  progressToken?: string;
}

export interface CallPath {
  /** Which path it is (for tests and logs). */
  readonly kind: "sdk" | "http-fast" | "stdio-raw";
  /**
   * One tools/call. Resolves with the result as the server gave it (the raw paths do not check it
   * against the SDK's schema: the agent validates it); rejects with the server's JSON-RPC error
   * (the SDK's ProtocolError), a transport failure, or the abort's reason.
   */
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal, options?: CallOptions): Promise<CallToolResult>;
  /**
   * The connection ended: every call still waiting on this path fails with `reason`; one still
   * on its way (waiting for its roots) goes to the SDK's client, which refuses it as not connected.
   */
  close(reason: Error): void;
}

/** A tool call that failed as a protocol error (not a tool result with isError). */
export class ToolCallError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "ToolCallError";
  }
}
