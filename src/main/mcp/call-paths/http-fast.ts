// tools/call to a streamable HTTP server without the SDK client on the way: one POST over a
// keep-alive node:http agent, the answer read as JSON or as an event stream, the result handed
// back as the server wrote it. Profiling the gateway in front of an HTTP server put most of its
// CPU in fetch (undici: a Request, web streams, an abort listener per call), the transport's
// web-stream SSE parser and the client's zod parsing of a result the agent validates anyway.
//
// Only the plain case comes here (connection.ts decides): a legacy-era session with no OAuth
// provider, no progress asked for, a tool without an output schema. Everything else the server
// sends on the call's stream (log messages, its own requests such as elicitation) is handed to
// the SDK client's transport as if it had read it, so the client's handlers answer as before.
// A refusal the SDK knows how to recover from (401, 403, 404) is not acted on here: the caller
// retries the call through the SDK, which signs in or reports as it always did.
import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { abortReason, callResponse } from "./call-response";
import { MAX_SERVER_MESSAGE_BYTES } from "../../../shared/limits";

type Message = Record<string, unknown>;

export type FastOutcome = { kind: "result"; result: Record<string, unknown> } | { kind: "retry-with-sdk"; status: number };

/** Agents shared by every fast caller: sockets stay open between calls (the SDK's fetch pool does the same). */
const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 });

/** Statuses where the server did not run the call and the SDK has a way forward (sign-in, a new session). */
const SDK_RECOVERS = new Set([401, 403, 404]);
/** Before resuming a stream the server closed, when it gave no `retry:` (the SDK client's first delay). */
const DEFAULT_RETRY_MS = 1_000;
/** A server's `retry:` is honoured up to this; a larger one would leave the call hanging for nothing. */
const MAX_RETRY_MS = 30_000;
/** Resumptions in a row that bring no new event before the call fails (the SDK client's maxRetries). */
const MAX_RESUMES = 2;

export interface FastCallTarget {
  url: URL;
  /** The configured headers (already expanded), sent on every POST like the SDK transport's requestInit. */
  headers: Record<string, string>;
  /** The transport's current session id and protocol version, read per call (they are set at initialize). */
  session(): { sessionId?: string; protocolVersion?: string };
  /** The OAuth access token, when the server is signed in to (read per call: it is refreshed). */
  token?: () => Promise<string | undefined>;
  /** A message on the call's stream that is not its answer: the SDK client's transport takes it. */
  deliver(message: Message): void;
}

/**
 * One tools/call as a raw JSON-RPC POST. Resolves with the result, or says the SDK should retry;
 * rejects with the server's JSON-RPC error (as the SDK's ProtocolError) or a transport failure.
 * An abort destroys the request; the caller tells the server (notifications/cancelled).
 */
export async function fastCall(target: FastCallTarget, id: string, params: Record<string, unknown>, signal: AbortSignal): Promise<FastOutcome> {
  const token = target.token ? await target.token() : undefined;
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });
  const { sessionId, protocolVersion } = target.session();
  const common: Record<string, string> = { ...target.headers };
  if (sessionId) common["mcp-session-id"] = sessionId;
  if (protocolVersion) common["mcp-protocol-version"] = protocolVersion;
  if (token) common.authorization = `Bearer ${token}`;
  const headers: Record<string, string | number> = {
    ...common,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "content-length": Buffer.byteLength(body),
  };
  const secure = target.url.protocol === "https:";
  const agent = secure ? httpsAgent : httpAgent;
  return new Promise<FastOutcome>((resolve, reject) => {
    let settled = false;
    // Resumption (SSE polling): a server may close the call's stream before answering, having
    // given its events ids; the answer then comes on a GET with Last-Event-ID, after `retry` ms.
    let lastEventId: string | undefined;
    let retryMs = DEFAULT_RETRY_MS;
    let resumes = 0;
    let waiting: ReturnType<typeof setTimeout> | undefined;
    const settle = (outcome: FastOutcome | Error) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      if (waiting) clearTimeout(waiting);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onAbort = () => {
      settle(abortReason(signal));
      current.destroy();
    };
    const onResume = (field: "id" | "retry", value: string) => {
      if (field === "id") {
        if (value !== lastEventId) resumes = 0; // the server is getting somewhere: a fresh allowance
        lastEventId = value;
        return;
      }
      const ms = Number(value);
      if (Number.isInteger(ms) && ms >= 0) retryMs = Math.min(ms, MAX_RETRY_MS);
    };
    const streamEnded = (error?: Error) => {
      if (settled) return;
      if (error || lastEventId === undefined || resumes >= MAX_RESUMES) {
        settle(error ?? new Error("the server closed the call's stream before answering"));
        return;
      }
      resumes += 1;
      waiting = setTimeout(resume, retryMs);
    };
    const resume = () => {
      waiting = undefined;
      if (settled) return;
      const get = (secure ? https : http).request(target.url, { method: "GET", headers: { ...common, accept: "text/event-stream", "last-event-id": lastEventId! }, agent }, (res) => {
        const status = res.statusCode ?? 0;
        if (status !== 200 || !(res.headers["content-type"] ?? "").toLowerCase().startsWith("text/event-stream")) {
          res.resume();
          settle(new Error(`the server closed the call's stream before answering, and resuming it got HTTP ${status}`));
          return;
        }
        readEventStream(res, onMessage, streamEnded, onResume);
      });
      get.on("error", (error) => settle(error));
      current = get;
      get.end();
    };
    const onMessage = (message: unknown) => {
      if (settled || typeof message !== "object" || message === null) return;
      const m = message as Message;
      if (m.id === id && m.method === undefined) {
        const outcome = callResponse(m);
        settle(outcome instanceof Error ? outcome : { kind: "result", result: outcome });
        return;
      }
      target.deliver(m);
    };
    let current: http.ClientRequest = (secure ? https : http).request(
      target.url,
      { method: "POST", headers, agent },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          res.resume();
          if (SDK_RECOVERS.has(status)) {
            settle({ kind: "retry-with-sdk", status });
            return;
          }
          // Only the start of a refusal's body is quoted; the rest is read and dropped.
          let head = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            if (head.length < 500) head += chunk.slice(0, 500 - head.length);
          });
          res.on("end", () => settle(new Error(`Error POSTing to endpoint: HTTP ${status} ${head}`)));
          return;
        }
        const type = (res.headers["content-type"] ?? "").toLowerCase();
        if (type.startsWith("text/event-stream")) {
          readEventStream(res, onMessage, streamEnded, onResume);
          return;
        }
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > MAX_SERVER_MESSAGE_BYTES) {
            settle(new Error(tooLarge()));
            res.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(chunks.length === 1 ? chunks[0].toString("utf8") : Buffer.concat(chunks).toString("utf8"));
          } catch (error) {
            settle(new Error(`the server's answer is not JSON (${(error as Error).message})`));
            return;
          }
          for (const message of Array.isArray(parsed) ? parsed : [parsed]) onMessage(message);
          settle(new Error("the server answered without a response to the call"));
        });
        res.on("error", (error) => settle(error));
      },
    );
    current.on("error", (error) => settle(error));
    const post = current;
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    post.end(body);
  });
}

/**
 * Reads an event stream (text/event-stream): each event's data lines, joined, parsed as one
 * JSON-RPC message. `end` runs once, when the stream ends or fails. Works on whole events (a
 * blank line ends one), so a typical answer (one event in one chunk) costs one scan.
 */
export function readEventStream(
  res: Readable,
  onMessage: (message: unknown) => void,
  end: (error?: Error) => void,
  /** The stream's resumption fields: an event's `id:` and the server's `retry:` (ms). */
  onResume?: (field: "id" | "retry", value: string) => void,
  /** The most one unfinished event may hold (UTF-16 units); past it the stream is dropped with an error. */
  maxEvent = MAX_SERVER_MESSAGE_BYTES,
): void {
  res.setEncoding("utf8");
  // The unfinished event, in the pieces it came in: each chunk is scanned once, and pieces are
  // joined only when their event ends (re-scanning or re-joining a growing string per chunk made a
  // long event cost quadratic time).
  let parts: string[] = [];
  let size = 0;
  /** A CR that ended a chunk: the first half of a CRLF, or a line end of its own. */
  let heldCR = false;
  const event = (block: string) => {
    let data: string | undefined;
    let at = 0;
    while (at < block.length) {
      let eol = block.indexOf("\n", at);
      if (eol === -1) eol = block.length;
      // Data lines carry the messages; id: and retry: say how to resume; event: and comments need nothing.
      if (block.startsWith("data:", at)) {
        const value = block.slice(block.charCodeAt(at + 5) === 32 ? at + 6 : at + 5, eol);
        data = data === undefined ? value : `${data}\n${value}`;
      } else if (onResume && (block.startsWith("id:", at) || block.startsWith("retry:", at))) {
        const field = block.charCodeAt(at) === 105 ? "id" : "retry";
        const from = at + field.length + 1;
        onResume(field, block.slice(block.charCodeAt(from) === 32 ? from + 1 : from, eol));
      }
      at = eol + 1;
    }
    if (data === undefined) return;
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      return; // Not JSON: the SDK's transport drops such an event too (it reports it to onerror).
    }
    onMessage(message);
  };
  const take = (raw: string) => {
    let chunk = heldCR ? `\r${raw}` : raw;
    heldCR = false;
    if (chunk.includes("\r")) {
      // CRLF and CR end lines too; a CR at the very end may be the first half of a CRLF.
      heldCR = chunk.endsWith("\r");
      chunk = (heldCR ? chunk.slice(0, -1) : chunk).replace(/\r\n?/g, "\n");
    }
    let start = 0;
    // A blank line split between the pieces held and this chunk.
    if (size > 0 && chunk.charCodeAt(0) === 10 && parts[parts.length - 1].endsWith("\n")) {
      event(parts.join("").slice(0, -1));
      parts = [];
      size = 0;
      start = 1;
    }
    for (;;) {
      const blank = chunk.indexOf("\n\n", start);
      if (blank === -1) break;
      const piece = chunk.slice(start, blank);
      event(size > 0 ? parts.join("") + piece : piece);
      parts = [];
      size = 0;
      start = blank + 2;
    }
    if (start < chunk.length) {
      const rest = start === 0 ? chunk : chunk.slice(start);
      parts.push(rest);
      size += rest.length;
    }
    if (size > maxEvent) {
      parts = [];
      size = 0;
      endOnce(new Error(tooLarge()));
      res.destroy();
    }
  };
  let ended = false;
  const endOnce = (error?: Error) => {
    if (ended) return;
    ended = true;
    end(error);
  };
  res.on("data", take);
  res.on("end", () => {
    // A CR held back as half a CRLF was a line end after all.
    if (heldCR) take("\n");
    endOnce();
  });
  res.on("error", (error) => endOnce(error));
  res.on("close", () => endOnce());
}

function tooLarge(): string {
  return `the server sent a message larger than ${MAX_SERVER_MESSAGE_BYTES / (1024 * 1024)} MiB on the call's stream; the call was dropped`;
}
