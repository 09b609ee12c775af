// Every request reach/ sends (push services, ntfy, webhooks, Matrix) goes through here: one
// deadline for the whole exchange, no redirects (a redirect could carry a token's header to
// another host), and at most a small part of the answer read. Errors name the host and the status,
// never the URL's path or query (a webhook's URL is its credential) nor a header.

export const OUTBOUND_TIMEOUT_MS = 10_000;
/** What we read of an answer: enough for an error's first words. */
const MAX_ANSWER_BYTES = 16 * 1024;
/** What we send: a notification is a few hundred bytes; a push payload at most 4 KiB. */
export const MAX_SEND_BYTES = 64 * 1024;

export interface OutboundRequest {
  url: string;
  method?: "POST" | "PUT";
  headers: Record<string, string>;
  body: string | Uint8Array;
  timeoutMs?: number;
}

export interface OutboundAnswer {
  status: number;
  /** The start of the answer's body, as text. */
  text: string;
}

export class OutboundError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

/** Where a request went, for an error: the origin only. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "an address that is not a URL";
  }
}

async function readStart(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_ANSWER_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString("utf8");
}

/** Sends one request; resolves with a 2xx answer, rejects with an OutboundError otherwise. */
export async function send(request: OutboundRequest): Promise<OutboundAnswer> {
  const size = typeof request.body === "string" ? Buffer.byteLength(request.body) : request.body.byteLength;
  if (size > MAX_SEND_BYTES) throw new OutboundError(`the message is ${size} bytes, more than ${MAX_SEND_BYTES}`);
  const host = hostOf(request.url);
  const timeoutMs = request.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(request.url, { method: request.method ?? "POST", headers: request.headers, body: request.body as BodyInit, redirect: "manual", signal });
  } catch (error) {
    const why = signal.aborted ? `no answer within ${timeoutMs / 1000} s` : ((error as { cause?: { code?: string } }).cause?.code ?? "the connection failed");
    throw new OutboundError(`${host}: ${why}`);
  }
  const text = await Promise.race([readStart(response), new Promise<string>((resolve) => signal.addEventListener("abort", () => resolve(""), { once: true }))]);
  if (response.status >= 200 && response.status < 300) return { status: response.status, text };
  const redirect = response.status >= 300 && response.status < 400 ? " (a redirect, which is not followed)" : "";
  throw new OutboundError(`${host} answered ${response.status}${redirect}`, response.status);
}

/** http: only to this machine; everything else must be https (a token would travel in clear). */
export function urlProblem(value: string, what: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${what} is not a URL`;
  }
  if (url.username || url.password) return `${what} must not carry a user name or password; use the token field`;
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return undefined;
  return `${what} must start with https:// (http:// only to this computer)`;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
