// Checks a §10 Request an agent posts before it may enter the Inbox. Every refusal names the rule,
// so the agent's author can fix the call from the 400 alone.
import type { Request } from "../../shared/types";

export type Checked = { ok: true; request: Request } | { ok: false; reason: string };

const KEYS = new Set(["id", "kind", "prompt", "url", "data", "expiresAt"]);
// RFC 3339 date-time: full date, "T" (or space, as §5.6 allows), time, optional fraction, offset.
const RFC3339 = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

export function isRfc3339(value: string): boolean {
  return RFC3339.test(value) && !Number.isNaN(Date.parse(value.replace(" ", "T")));
}

export function checkRequest(body: unknown): Checked {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, reason: "The body must be one Request object: { id, kind, prompt, url?, data?, expiresAt? }." };
  }
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
  if (url !== undefined && typeof url !== "string") return { ok: false, reason: '"url" must be a string.' };
  if (kind === "authorization" && (typeof url !== "string" || !isHttpUrl(url))) {
    return { ok: false, reason: 'kind "authorization" needs an http(s) "url" for the person to open.' };
  }
  if (data !== undefined && (typeof data !== "object" || data === null || Array.isArray(data))) {
    return { ok: false, reason: '"data" must be an object.' };
  }
  if (kind === "input" && data !== undefined) {
    const schema = (data as Record<string, unknown>).schema;
    if (schema !== undefined && (typeof schema !== "object" || schema === null || Array.isArray(schema))) {
      return { ok: false, reason: '"data.schema" must be a JSON Schema object.' };
    }
  }
  if (expiresAt !== undefined && (typeof expiresAt !== "string" || !isRfc3339(expiresAt))) {
    return { ok: false, reason: '"expiresAt" must be an RFC 3339 timestamp such as "2026-01-31T12:00:00Z".' };
  }
  const request: Request = { id, kind, prompt };
  if (url !== undefined) request.url = url as string;
  if (data !== undefined) request.data = data as Record<string, unknown>;
  if (expiresAt !== undefined) request.expiresAt = expiresAt as string;
  return { ok: true, request };
}
