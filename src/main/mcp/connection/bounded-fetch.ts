// What a remote server sends through the SDK's transports (initialize, lists, resources, prompts,
// the standing SSE stream) is read without any bound by the SDK: a server that streams one event
// forever, or a JSON body without end, grows our memory until the process dies. Each response body
// passes through a counter here instead: an event-stream may not run more than
// MAX_SERVER_MESSAGE_BYTES without ending an event, and any other body may not exceed it. Past the
// bound the body errors with the reason, which the SDK reports as that request's failure.
// (tools/call on the fast path has the same bound in call-paths/http-fast.ts.)
import { MAX_SERVER_MESSAGE_BYTES } from "../../../shared/limits";
import type { FetchMiddleware } from "./fetch-middleware";

/** Every way an SSE event can end: a line end followed by an empty line (CR, LF or CRLF each). */
const EVENT_ENDS = ["\n\n", "\r\r", "\r\n\r\n", "\n\r\n", "\r\n\n", "\r\r\n"].map((end) => Buffer.from(end));
const LONGEST_END = 4;

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export class MessageTooLargeError extends Error {}

/** Where, in chunk, the last event end finishes (the index after it), or -1; `before` is the end
 * of the previous chunk, so an end split across two chunks counts too. */
function afterLastEventEnd(before: Buffer, chunk: Buffer): number {
  let found = -1;
  for (const end of EVENT_ENDS) {
    const at = chunk.lastIndexOf(end);
    if (at >= 0) found = Math.max(found, at + end.length);
  }
  if (found >= 0 || before.length === 0) return found;
  const joint = Buffer.concat([before, chunk.subarray(0, LONGEST_END - 1)]);
  for (const end of EVENT_ENDS) {
    const at = joint.lastIndexOf(end);
    if (at >= 0 && at + end.length > before.length) found = Math.max(found, at + end.length - before.length);
  }
  return found;
}

/** A body stream that errors once an event (or the whole body, when not an event-stream) passes maxBytes. */
export function boundedBody(
  body: ReadableStream<Uint8Array>,
  eventStream: boolean,
  maxBytes = MAX_SERVER_MESSAGE_BYTES,
  onTooLarge?: (error: MessageTooLargeError) => void,
): ReadableStream<Uint8Array> {
  let since = 0;
  let tail = Buffer.alloc(0);
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        if (eventStream) {
          const after = afterLastEventEnd(tail, bytes);
          since = after >= 0 ? bytes.length - after : since + bytes.length;
          tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - (LONGEST_END - 1))));
        } else {
          since += bytes.length;
        }
        if (since > maxBytes) {
          const what = eventStream ? "an event" : "a response";
          const error = new MessageTooLargeError(`the server sent ${what} over ${maxBytes} bytes; it was not read further`);
          controller.error(error);
          onTooLarge?.(error);
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

export interface BoundedFetchOptions {
  maxBytes?: number;
  /** Told when a body is cut: the SDK only logs an SSE stream's error and leaves its request
   * waiting, so the connection closes itself with this reason (lifecycle.ts). */
  onTooLarge?: (error: MessageTooLargeError) => void;
}

/** Every response body the fetch it wraps returns, bounded (boundedBody). */
export function boundedFetch(options: BoundedFetchOptions = {}): FetchMiddleware {
  const maxBytes = options.maxBytes ?? MAX_SERVER_MESSAGE_BYTES;
  return (next) => async (input, init) => {
    const response = await next(input, init);
    // A null-body status cannot be given a body, and has none to bound.
    if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
    const eventStream = (response.headers.get("content-type") ?? "").toLowerCase().includes("text/event-stream");
    const bounded = new Response(boundedBody(response.body, eventStream, maxBytes, options.onTooLarge), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // The SDK reads the final URL after redirects; a constructed Response has none of its own.
    Object.defineProperty(bounded, "url", { value: response.url });
    return bounded;
  };
}
