// The client half of the companion proof (src/main/http/companion-proof.ts): every TCP connection
// that will carry the gateway token first carries a nonce, and is used only once the answer is the
// companion's HMAC for this nonce and this address. A listener that cannot prove itself gets the
// nonce and nothing else; its answers are never read as the companion's. The CLI's hook and
// `connect` shim and the TypeScript client all go through provenAgent, so a keep-alive reconnect
// (the companion restarted, something else took its port meanwhile) is proven again too.
import { Agent, request as httpRequest, type ClientRequestArgs, type IncomingHttpHeaders } from "node:http";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { Readable } from "node:stream";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { companionProof, listenerAddress, NONCE_BYTES, PROOF_PATH } from "../http/companion-proof";

/** The companion answers at once; a listener that keeps the connection open is not it. */
export const PROOF_TIMEOUT_MS = 5_000;
/** The companion's answer is a few hundred bytes; more is not it either. */
const MAX_PROOF_RESPONSE_BYTES = 8 * 1024;
const HTTP_PREFIX = Buffer.from("HTTP/");

/** The listener at `where` could not prove it holds the token: nothing secret was sent to it. */
export class NotTheCompanion extends Error {
  constructor(
    readonly where: string,
    readonly detail: string,
  ) {
    super(
      `something else is listening on ${where} (it could not prove it is the companion); if the companion does run there, ` +
        "the token given is not its current one",
    );
    this.name = "NotTheCompanion";
  }
}

function hostPart(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** Reads one HTTP/1.1 response with a Content-Length body from `data`, or says what is wrong. */
function parseProofResponse(data: Buffer): { proof: string } | { incomplete: true } | { wrong: string } {
  // Not HTTP at all (another protocol's banner): no need to wait for the rest.
  if (!data.subarray(0, 5).equals(HTTP_PREFIX.subarray(0, Math.min(5, data.length)))) return { wrong: "something that is not HTTP" };
  const end = data.indexOf("\r\n\r\n");
  if (end < 0) return data.length > MAX_PROOF_RESPONSE_BYTES ? { wrong: "an oversize answer" } : { incomplete: true };
  const lines = data.subarray(0, end).toString("latin1").split("\r\n");
  if (!/^HTTP\/1\.1 200 /.test(lines[0] ?? "")) return { wrong: `"${(lines[0] ?? "").slice(0, 40)}"` };
  let length: number | undefined;
  for (const line of lines.slice(1)) {
    const [name, ...rest] = line.split(":");
    const key = name.trim().toLowerCase();
    const value = rest.join(":").trim();
    if (key === "transfer-encoding") return { wrong: "a chunked answer" };
    if (key === "connection" && value.toLowerCase() === "close") return { wrong: "an answer that closes the connection" };
    if (key === "content-length") {
      if (length !== undefined || !/^\d{1,4}$/.test(value)) return { wrong: "a bad Content-Length" };
      length = Number(value);
    }
  }
  if (length === undefined) return { wrong: "no Content-Length" };
  const body = data.subarray(end + 4);
  if (body.length < length) return end + 4 + length > MAX_PROOF_RESPONSE_BYTES ? { wrong: "an oversize answer" } : { incomplete: true };
  // Nothing may follow: the connection is handed to the HTTP client right after.
  if (body.length > length) return { wrong: "bytes after the answer" };
  try {
    const proof = (JSON.parse(body.toString("utf8")) as { proof?: unknown }).proof;
    return typeof proof === "string" ? { proof } : { wrong: "no proof in the answer" };
  } catch {
    return { wrong: "an answer that is not JSON" };
  }
}

function sameProof(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Sends the nonce on `socket` (connected) and resolves once the answer proves the companion; the
 * socket is then clean for the HTTP client. Rejects with NotTheCompanion otherwise.
 */
export function proveSocket(socket: Socket, hostHeader: string, token: string, where: string): Promise<void> {
  const nonce = randomBytes(NONCE_BYTES).toString("base64url");
  const expected = companionProof(token, nonce, listenerAddress(socket.remoteAddress, socket.remotePort));
  return new Promise<void>((resolve, reject) => {
    let data = Buffer.alloc(0);
    const done = (error?: Error) => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("close", onClose);
      socket.off("error", onError);
      if (error) {
        socket.destroy();
        reject(error);
      } else resolve();
    };
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const parsed = parseProofResponse(data);
      if ("incomplete" in parsed) return;
      if ("wrong" in parsed) return done(new NotTheCompanion(where, `it answered ${parsed.wrong}`));
      done(sameProof(parsed.proof, expected) ? undefined : new NotTheCompanion(where, "its proof is wrong"));
    };
    const onClose = () => done(new NotTheCompanion(where, "it closed the connection without a proof"));
    const onError = (error: Error) => done(new NotTheCompanion(where, `the connection failed: ${error.message}`));
    const timer = setTimeout(() => done(new NotTheCompanion(where, `no proof within ${PROOF_TIMEOUT_MS / 1000} s`)), PROOF_TIMEOUT_MS);
    socket.on("data", onData);
    socket.once("close", onClose);
    socket.once("error", onError);
    socket.write(`GET ${PROOF_PATH}?nonce=${nonce} HTTP/1.1\r\nHost: ${hostHeader}\r\nAccept: application/json\r\nConnection: keep-alive\r\n\r\n`);
  });
}

/** Connects to options' host and port and proves the companion there before handing the socket on. */
function provenConnection(token: string, options: ClientRequestArgs, callback: (error: Error | null, stream: Duplex) => void): void {
  const host = options.host ?? options.hostname ?? "127.0.0.1";
  const port = Number(options.port ?? 80);
  const where = `${hostPart(host)}:${port}`;
  const socket = connect({ host, port });
  const failed = (error: Error) => callback(error, socket);
  socket.once("error", failed);
  socket.once("connect", () => {
    socket.off("error", failed);
    proveSocket(socket, where, token, where).then(
      () => callback(null, socket),
      (error: Error) => callback(error, socket),
    );
  });
}

/**
 * A keep-alive http.Agent whose every connection is proven first. Requests made with it carry
 * the token only over a connection the companion has answered the proof on.
 */
export function provenAgent(token: string): Agent {
  const agent = new Agent({ keepAlive: true });
  agent.createConnection = (options, callback) => {
    provenConnection(token, options, callback!);
    return undefined;
  };
  return agent;
}

function headersOf(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

const NULL_BODY = new Set([204, 205, 304]);

/**
 * fetch over node:http with a proven agent, for the SDK's StreamableHTTPClientTransport: the body
 * streams (SSE), an abort ends the request. Only what that transport sends is supported: a
 * string or bytes body, no redirects followed.
 */
export function provenFetch(agent: Agent): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return (url, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      if (target.protocol !== "http:") return reject(new TypeError(`The companion is reached over plain http on loopback, not ${target.protocol}`));
      const body = init.body;
      if (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) {
        return reject(new TypeError("Only a string or bytes body can be sent to the companion."));
      }
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const req = httpRequest(target, { method: init.method ?? "GET", headers, agent, signal: init.signal ?? undefined }, (res) => {
        const status = res.statusCode ?? 502;
        const empty = NULL_BODY.has(status) || init.method === "HEAD";
        if (empty) res.resume();
        resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, statusText: res.statusMessage, headers: headersOf(res.headers) }));
      });
      req.on("error", reject);
      req.end(body ?? undefined);
    });
}
