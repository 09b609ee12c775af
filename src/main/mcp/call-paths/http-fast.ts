// tools/call to a streamable HTTP server without the SDK client on the way: one POST over a
// keep-alive node:http agent, the answer read as JSON or as an event stream, the result handed
// back as the server wrote it. Profiling the gateway in front of an HTTP server put most of its
// CPU in fetch (undici: a Request, web streams, an abort listener per call), the transport's
// web-stream SSE parser and the client's zod parsing of a result the agent validates anyway.
//
// Only the plain case comes here: a legacy-era session without DPoP (choose.ts), no progress
// asked for, a tool without an output schema (call-response.ts). Everything else the server
// sends on the call's stream (log messages, its own requests such as elicitation) is handed to
// the SDK client's transport as if it had read it, so the client's handlers answer as before.
// A refusal the SDK knows how to recover from (401, 403, 404) is not acted on here: the call is
// retried through the SDK path, which signs in or reports as it always did.
import type { CallToolResult, OAuthClientProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import type { CallPath } from "./call-path";
import { abortReason, callResponse, guardedCall, takesRaw, type RawSetting } from "./call-response";
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
  return new Promise<FastOutcome>((resolve, reject) => new OneFastCall(target, id, token, signal, resolve, reject).post(params));
}

/** One fast call on the wire: its POST, the answer read off it, and any resumption of its stream. */
class OneFastCall {
  private settled = false;
  /** The headers of every request of this call (the POST and any resuming GET). */
  private readonly common: Record<string, string>;
  private readonly secure: boolean;
  private readonly agent: http.Agent;
  /** The request on the wire: the POST, then the GET of a resumption. */
  private current?: http.ClientRequest;
  // Resumption (SSE polling): a server may close the call's stream before answering, having
  // given its events ids; the answer then comes on a GET with Last-Event-ID, after `retry` ms.
  private lastEventId?: string;
  private retryMs = DEFAULT_RETRY_MS;
  private resumes = 0;
  private waiting?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly target: FastCallTarget,
    private readonly id: string,
    token: string | undefined,
    private readonly signal: AbortSignal,
    private readonly resolve: (outcome: FastOutcome) => void,
    private readonly reject: (error: Error) => void,
  ) {
    const { sessionId, protocolVersion } = target.session();
    this.common = { ...target.headers };
    if (sessionId) this.common["mcp-session-id"] = sessionId;
    if (protocolVersion) this.common["mcp-protocol-version"] = protocolVersion;
    if (token) this.common.authorization = `Bearer ${token}`;
    this.secure = target.url.protocol === "https:";
    this.agent = this.secure ? httpsAgent : httpAgent;
  }

  post(params: Record<string, unknown>): void {
    const body = JSON.stringify({ jsonrpc: "2.0", id: this.id, method: "tools/call", params });
    const headers: Record<string, string | number> = {
      ...this.common,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "content-length": Buffer.byteLength(body),
    };
    const post = (this.secure ? https : http).request(this.target.url, { method: "POST", headers, agent: this.agent }, (res) => this.answered(res));
    post.on("error", (error) => this.settle(error));
    this.current = post;
    if (this.signal.aborted) {
      this.onAbort();
      return;
    }
    this.signal.addEventListener("abort", this.onAbort, { once: true });
    post.end(body);
  }

  /** The POST's response: a refusal, an event stream, or a JSON body. */
  private answered(res: http.IncomingMessage): void {
    const status = res.statusCode ?? 0;
    if (status !== 200) {
      res.resume();
      if (SDK_RECOVERS.has(status)) this.settle({ kind: "retry-with-sdk", status });
      else this.refused(res, status);
      return;
    }
    const type = (res.headers["content-type"] ?? "").toLowerCase();
    if (type.startsWith("text/event-stream")) readEventStream(res, this.onMessage, this.streamEnded, this.onResume);
    else this.readJson(res);
  }

  /** Only the start of a refusal's body is quoted; the rest is read and dropped. */
  private refused(res: http.IncomingMessage, status: number): void {
    let head = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      if (head.length < 500) head += chunk.slice(0, 500 - head.length);
    });
    res.on("end", () => this.settle(new Error(`Error POSTing to endpoint: HTTP ${status} ${head}`)));
  }

  private readJson(res: http.IncomingMessage): void {
    const chunks: Buffer[] = [];
    let bytes = 0;
    res.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_SERVER_MESSAGE_BYTES) {
        this.settle(new Error(tooLarge()));
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
        this.settle(new Error(`the server's answer is not JSON (${(error as Error).message})`));
        return;
      }
      for (const message of Array.isArray(parsed) ? parsed : [parsed]) this.onMessage(message);
      this.settle(new Error("the server answered without a response to the call"));
    });
    res.on("error", (error) => this.settle(error));
  }

  private readonly onMessage = (message: unknown): void => {
    if (this.settled || typeof message !== "object" || message === null) return;
    const m = message as Message;
    if (m.id === this.id && m.method === undefined) {
      const outcome = callResponse(m);
      this.settle(outcome instanceof Error ? outcome : { kind: "result", result: outcome });
      return;
    }
    this.target.deliver(m);
  };

  private readonly onResume = (field: "id" | "retry", value: string): void => {
    if (field === "id") {
      if (value !== this.lastEventId) this.resumes = 0; // the server is getting somewhere: a fresh allowance
      this.lastEventId = value;
      return;
    }
    const ms = Number(value);
    if (Number.isInteger(ms) && ms >= 0) this.retryMs = Math.min(ms, MAX_RETRY_MS);
  };

  private readonly streamEnded = (error?: Error): void => {
    if (this.settled) return;
    if (error || this.lastEventId === undefined || this.resumes >= MAX_RESUMES) {
      this.settle(error ?? new Error("the server closed the call's stream before answering"));
      return;
    }
    this.resumes += 1;
    this.waiting = setTimeout(() => this.resume(), this.retryMs);
  };

  private resume(): void {
    this.waiting = undefined;
    if (this.settled) return;
    const headers = { ...this.common, accept: "text/event-stream", "last-event-id": this.lastEventId! };
    const get = (this.secure ? https : http).request(this.target.url, { method: "GET", headers, agent: this.agent }, (res) => {
      const status = res.statusCode ?? 0;
      if (status !== 200 || !(res.headers["content-type"] ?? "").toLowerCase().startsWith("text/event-stream")) {
        res.resume();
        this.settle(new Error(`the server closed the call's stream before answering, and resuming it got HTTP ${status}`));
        return;
      }
      readEventStream(res, this.onMessage, this.streamEnded, this.onResume);
    });
    get.on("error", (error) => this.settle(error));
    this.current = get;
    get.end();
  }

  private readonly onAbort = (): void => {
    this.settle(abortReason(this.signal));
    this.current?.destroy();
  };

  private settle(outcome: FastOutcome | Error): void {
    if (this.settled) return;
    this.settled = true;
    this.signal.removeEventListener("abort", this.onAbort);
    if (this.waiting) clearTimeout(this.waiting);
    if (outcome instanceof Error) this.reject(outcome);
    else this.resolve(outcome);
  }
}

/** The fast path's view of a streamable HTTP connection: its URL, headers, session and token. */
export function fastTarget(url: URL, headers: Record<string, string>, transport: StreamableHTTPClientTransport, authProvider?: OAuthClientProvider): FastCallTarget {
  return {
    url,
    headers,
    session: () => ({ sessionId: transport.sessionId, protocolVersion: transport.protocolVersion }),
    token: authProvider ? async () => (await authProvider.tokens())?.access_token : undefined,
    deliver: (message) => transport.onmessage?.(message as never),
  };
}

/** The HTTP fast path: plain calls as POSTs of our own, the rest (and what the SDK recovers from) through the SDK. */
export function httpFastPath(target: FastCallTarget, setting: RawSetting): CallPath {
  let ids = 0;
  let closed = false;
  return {
    kind: "http-fast",
    async call(tool, args, signal, options) {
      // Once the connection ended, a call still on its way fails as the SDK's client says.
      if (!closed && takesRaw(setting, tool, options)) {
        const id = `tnc-${++ids}`;
        const outcome = await guardedCall(setting, tool, signal, (guarded) => ({ id, result: fastCall(target, id, { name: tool, arguments: args }, guarded) }));
        if (outcome.kind === "result") return outcome.result as CallToolResult;
      }
      return setting.sdk.call(tool, args, signal, options);
    },
    close() {
      closed = true;
    },
  };
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
