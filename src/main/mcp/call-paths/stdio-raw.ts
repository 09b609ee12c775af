// tools/call over a stdio server's transport without the SDK client's request machinery: the
// request is written as one JSON-RPC line, and its response is taken off the transport before
// the client would see it. The client's request path (a timeout timer and abort listeners per
// call, zod parsing of the result, the output-schema check) is most of what the gateway spends
// in front of a stdio server per call; the agent validates the result itself.
//
// Only the plain case comes here: the legacy era (choose.ts), no progress asked for, a tool
// without an output schema (call-response.ts); the rest goes to the SDK path. Everything else the
// server sends (its own requests, log messages, notifications) still reaches the client as before.
import type { CallToolResult, Transport } from "@modelcontextprotocol/client";
import type { CallPath } from "./call-path";
import { asError } from "../../../shared/unknown-value";
import { abortReason, callResponse, guardedCall, takesRaw, type RawSetting } from "./call-response";

type Message = Record<string, unknown>;

export class RawCalls {
  private readonly pending = new Map<string, { resolve: (result: Message) => void; reject: (error: Error) => void }>();
  private next = 0;

  /** Call after the client has connected: its onmessage is in place and is kept for the rest. */
  constructor(private readonly transport: Transport) {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as Message;
      if (typeof m.id === "string" && m.method === undefined) {
        const waiting = this.pending.get(m.id);
        if (waiting) {
          this.pending.delete(m.id);
          const outcome = callResponse(m);
          if (outcome instanceof Error) waiting.reject(outcome);
          else waiting.resolve(outcome);
          return;
        }
      }
      deliver?.call(transport, message, extra);
    };
  }

  /** One tools/call; an abort rejects at once and the caller tells the server (notifications/cancelled). */
  call(params: Message, signal: AbortSignal): { id: string; result: Promise<Message> } {
    const id = `tnc-${++this.next}`;
    const result = new Promise<Message>((resolve, reject) => {
      if (signal.aborted) return reject(abortReason(signal));
      const onAbort = () => {
        this.pending.delete(id);
        reject(abortReason(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const done = () => signal.removeEventListener("abort", onAbort);
      this.pending.set(id, {
        resolve: (value) => {
          done();
          resolve(value);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      this.transport.send({ jsonrpc: "2.0", id, method: "tools/call", params } as never).catch((error: unknown) => {
        this.pending.get(id)?.reject(asError(error));
        this.pending.delete(id);
      });
    });
    return { id, result };
  }

  /** The connection ended: every call still waiting fails with the reason. */
  closeAll(reason: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const w of waiting) w.reject(reason);
  }
}

/** The stdio raw path: plain calls as lines of our own, the rest through the SDK. */
export function stdioRawPath(raw: RawCalls, setting: RawSetting): CallPath {
  let closed = false;
  return {
    kind: "stdio-raw",
    call(tool, args, signal, options) {
      // Once the connection ended, a call still on its way fails as the SDK's client says.
      if (closed || !takesRaw(setting, tool, options)) return setting.sdk.call(tool, args, signal, options);
      return guardedCall(setting, tool, signal, (guarded) => raw.call({ name: tool, arguments: args }, guarded)) as Promise<CallToolResult>;
    },
    close(reason) {
      closed = true;
      raw.closeAll(reason);
    },
  };
}
