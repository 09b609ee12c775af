// Requests of the 2026-07-28 tasks extension sent over a connected transport without the SDK
// client's request machinery: its 2026 codec refuses tasks/get, tasks/update and tasks/cancel
// locally ("not supported by the negotiated protocol version") and rejects a tools/call answered
// with `resultType: "task"` (an unsupported result type). Each request is framed as the SDK frames
// its own on this wire — the per-request `_meta` envelope of protocol version, client info and
// client capabilities — with the extension added to the capabilities of this request only: the
// SDK client's own requests never declare it, so a server never answers them with a task they
// would refuse. The response is taken off the transport before the client would see it.
//
// On streamable HTTP the SDK's transport derives the standard headers from the message itself
// (MCP-Protocol-Version, Mcp-Method, and Mcp-Name from params.taskId for tasks/get, tasks/update
// and tasks/cancel, as the extension requires for routing), signs the POST, and hands a -32021
// answered with HTTP 400 back as the JSON-RPC error it carries. On stdio it writes one line.
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  type ClientCapabilities,
  type Implementation,
  type Transport,
} from "@modelcontextprotocol/client";
import { withTaskCapabilityV2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import { asError, asPlainObject, isPlainObject } from "../../../shared/unknown-value";

type Message = Record<string, unknown>;

/** What a request of ours is framed with: what the client negotiated and declared at connect. */
export interface ModernFraming {
  protocolVersion: string;
  clientInfo: Implementation;
  /** The capabilities the SDK client was built with (it has no getter for them). */
  clientCapabilities: ClientCapabilities;
}

interface Pending {
  method: string;
  resolve(result: Message): void;
  reject(error: Error): void;
}

/** One request at a time per id over one transport; made after the client connected (its onmessage is in place). */
export class ModernDispatch {
  private readonly pending = new Map<string, Pending>();
  private next = 0;
  private closed?: Error;

  constructor(
    private readonly transport: Transport,
    private readonly framing: ModernFraming,
  ) {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as Message;
      if (typeof m.id === "string" && m.method === undefined && this.settle(m.id, m)) return;
      deliver?.call(transport, message, extra);
    };
  }

  /** The message as it goes on the wire: this request's envelope, declaring the tasks extension. */
  frame(id: string, method: string, params: Message): Message {
    const meta = {
      ...asPlainObject(params._meta),
      [PROTOCOL_VERSION_META_KEY]: this.framing.protocolVersion,
      [CLIENT_INFO_META_KEY]: this.framing.clientInfo,
      [CLIENT_CAPABILITIES_META_KEY]: this.framing.clientCapabilities,
    };
    return { jsonrpc: "2.0", id, method, params: withTaskCapabilityV2({ ...params, _meta: meta } as never) };
  }

  /**
   * One request. Resolves with its result object; rejects with the server's JSON-RPC error (the
   * SDK's ProtocolError: code, message, data), a transport failure, or the abort's reason; an
   * abort also tells `onAbandoned` the request's id (the server may stop working on it).
   */
  request(method: string, params: Message, signal: AbortSignal, onAbandoned?: (id: string, reason: Error) => void): Promise<Message> {
    if (this.closed) return Promise.reject(this.closed);
    if (signal.aborted) return Promise.reject(reasonOf(signal));
    const id = `tnx-${++this.next}`;
    return new Promise<Message>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        reject(reasonOf(signal));
        onAbandoned?.(id, reasonOf(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const done = () => signal.removeEventListener("abort", onAbort);
      this.pending.set(id, {
        method,
        resolve: (result) => (done(), resolve(result)),
        reject: (error) => (done(), reject(error)),
      });
      const fail = (error: unknown) => {
        this.pending.get(id)?.reject(asError(error));
        this.pending.delete(id);
      };
      // The stream of an HTTP POST may end without our answer (the server dropped it): say so,
      // after the messages read off it so far were delivered.
      const onRequestStreamEnd = () => setImmediate(() => fail(new Error(`the server closed the stream of ${method} without answering it`)));
      this.transport.send(this.frame(id, method, params) as never, { requestSignal: signal, onRequestStreamEnd }).catch(fail);
    });
  }

  /** The connection ended: every request still waiting fails with `reason`, and later ones at once. */
  close(reason: Error): void {
    this.closed = reason;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const w of waiting) w.reject(reason);
  }

  private settle(id: string, response: Message): boolean {
    const waiting = this.pending.get(id);
    if (!waiting) return false;
    this.pending.delete(id);
    if (response.error !== undefined) {
      const e = asPlainObject(response.error);
      waiting.reject(ProtocolError.fromError(typeof e.code === "number" ? e.code : -32603, typeof e.message === "string" ? e.message : "error", e.data));
    } else if (isPlainObject(response.result)) {
      waiting.resolve(response.result);
    } else {
      waiting.reject(new Error(`the server's answer to ${waiting.method} had no result object`));
    }
    return true;
  }
}

function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason ?? "aborted"));
}
