// Checks a Request (shared/types.ts) an agent posts before it may enter the Inbox. Every refusal names the rule,
// so the agent's author can fix the call from the 400 alone.
import type { Request } from "../../shared/types";
import { jsonBoundsProblem } from "../base/json-bounds";
import { MAX_PROMPT_LENGTH, MAX_URL_LENGTH } from "../../shared/limits";
import { isPlainObject } from "../../shared/unknown-value";

export type Checked = { ok: true; request: Request } | { ok: false; reason: string };

const KEYS = new Set(["id", "kind", "prompt", "url", "data", "expiresAt"]);
// RFC 3339 date-time: full date, "T" (or space, as its section 5.6 allows), time, optional fraction, offset.
const RFC3339 = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * RFC 3339 date-time with a day that exists: V8's Date.parse rolls `2030-02-30` over to March 2,
 * so the day is checked against its month (and leap years) here.
 */
export function isRfc3339(value: string): boolean {
  if (typeof value !== "string" || !RFC3339.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  if (day > daysInMonth(year, month)) return false;
  return !Number.isNaN(Date.parse(value.replace(" ", "T")));
}

/** Never throws, whatever the body: every defect is a reason for the 400. */
export function checkRequest(body: unknown): Checked {
  try {
    return check(body);
  } catch {
    return { ok: false, reason: "The body could not be read as a Request." };
  }
}

function check(body: unknown): Checked {
  if (!isPlainObject(body)) {
    return { ok: false, reason: "The body must be one Request object: { id, kind, prompt, url?, data?, expiresAt? }." };
  }
  const bounds = jsonBoundsProblem(body);
  if (bounds) return { ok: false, reason: `The Request is refused: ${bounds}.` };
  const input = body as Record<string, unknown>;
  const unknown = Object.keys(input).filter((k) => !KEYS.has(k));
  if (unknown.length > 0) {
    return { ok: false, reason: `Unknown key${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `"${k}"`).join(", ")}: a Request has exactly id, kind, prompt, url, data, expiresAt.` };
  }
  for (const key of ["id", "kind", "prompt"] as const) {
    if (!(key in input)) return { ok: false, reason: `Missing "${key}".` };
    if (typeof input[key] !== "string") return { ok: false, reason: `"${key}" must be a string.` };
  }
  const { id, kind, prompt, url, data, expiresAt } = input as Record<string, unknown> & { id: string; kind: string; prompt: string };
  if (id.trim() === "") return { ok: false, reason: '"id" must not be empty.' };
  if (id.length > 256) return { ok: false, reason: '"id" is longer than 256 characters.' };
  if (kind.trim() === "") return { ok: false, reason: '"kind" must not be empty.' };
  if (kind.length > 256) return { ok: false, reason: '"kind" is longer than 256 characters.' };
  if (prompt.length > MAX_PROMPT_LENGTH) return { ok: false, reason: `"prompt" is longer than ${MAX_PROMPT_LENGTH} characters.` };
  if (url !== undefined && typeof url !== "string") return { ok: false, reason: '"url" must be a string.' };
  if (typeof url === "string" && url.length > MAX_URL_LENGTH) return { ok: false, reason: `"url" is longer than ${MAX_URL_LENGTH} characters.` };
  if (kind === "authorization" && (typeof url !== "string" || !isHttpUrl(url))) {
    return { ok: false, reason: 'kind "authorization" needs an http(s) "url" for the person to open.' };
  }
  if (data !== undefined && !isPlainObject(data)) {
    return { ok: false, reason: '"data" must be an object.' };
  }
  if (kind === "input" && data !== undefined) {
    const schema = (data as Record<string, unknown>).schema;
    if (schema !== undefined && !isPlainObject(schema)) {
      return { ok: false, reason: '"data.schema" must be a JSON Schema object.' };
    }
  }
  if (expiresAt !== undefined && (typeof expiresAt !== "string" || !isRfc3339(expiresAt))) {
    return { ok: false, reason: '"expiresAt" must be an RFC 3339 timestamp of a day that exists, such as "2026-01-31T12:00:00Z".' };
  }
  const request: Request = { id, kind, prompt };
  if (url !== undefined) request.url = url as string;
  if (data !== undefined) request.data = data as Record<string, unknown>;
  if (expiresAt !== undefined) request.expiresAt = expiresAt as string;
  return { ok: true, request };
}
