// Request bodies for JSON routes: bounded, so one client cannot make the app buffer without end.
import type { IncomingMessage } from "node:http";
import { MAX_BODY_BYTES } from "../../shared/limits";
import { jsonBoundsProblem } from "../base/json-bounds";

export { MAX_BODY_BYTES };

/** An HTTP failure a route turns straight into a status and a message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** True when the declared Content-Length already exceeds the limit (refuse before reading). */
export function declaredTooLarge(req: IncomingMessage, limit = MAX_BODY_BYTES): boolean {
  const length = Number(req.headers["content-length"]);
  return Number.isFinite(length) && length > limit;
}

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  if (declaredTooLarge(req, limit)) {
    req.resume();
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        chunks.length = 0;
        // Keep draining so the 413 can still be written on this connection.
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on("error", (error) => {
      if (!failed) reject(error);
      failed = true;
    });
  });
}

/**
 * Parses JSON that arrived and checks its shape at once (limits.ts): 400 when it is not JSON, 422
 * when it is nested too deep or has too many values. JSON.parse accepts values nested far deeper
 * than JSON.stringify (or IPC) can later handle, so nothing unchecked may be stored or passed on.
 */
function parseBoundedJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `The request body is not valid JSON: ${(error as Error).message}`);
  }
  const problem = jsonBoundsProblem(value);
  if (problem) throw new HttpError(422, `The request body is refused: ${problem}.`);
  return value;
}

/** Reads and parses a JSON body: 413 past the size limit, 400 when it is not JSON, 422 out of bounds. */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const body = await readBody(req, limit);
  return parseBoundedJson(body.toString("utf8"));
}

function tooLarge(limit: number): HttpError {
  const size = limit >= 1024 * 1024 ? `${Math.round(limit / 1024 / 1024)} MiB` : `${limit} bytes`;
  return new HttpError(413, `The request body is larger than ${size}.`);
}
