// The elicitation bridge: an MCP server's `elicitation/create` (MCP 2025-11-25, elicitation)
// becomes one Request (shared/types.ts), and the person's Answer becomes its ElicitResult.
// Pure functions; this file's mapping is the one every view and the README's "How it answers" follow.
import { randomUUID } from "node:crypto";
import type { Answer, Request } from "../../shared/types";
import { reduceFormSchema } from "../../forms/flat-schema";
import { jsonBoundsProblem, tryStringify } from "../base/json-bounds";
import { jsonLengthBound } from "../base/json-size";
import { MAX_BODY_BYTES, MAX_JSON_NODES, MAX_PROMPT_LENGTH, MAX_URL_LENGTH } from "../../shared/limits";
import { isPlainObject } from "../../shared/unknown-value";

export type ElicitResult =
  | { action: "accept"; content: Record<string, unknown> }
  | { action: "decline" }
  | { action: "cancel" };

/** A fresh request id per elicitation: `elc-` and a random UUID, so ids never collide. */
function newElicitationId(): string {
  return `elc-${randomUUID()}`;
}

/**
 * `mode: "url"` ⇒ `kind: "authorization"` with the url (no data); anything else is a form ⇒
 * `kind: "input"` with the requested schema under `data.schema` (no url). `message` ⇒ `prompt`.
 */
export function elicitationToRequest(params: Record<string, unknown> | undefined): Request {
  const p = params ?? {};
  const prompt = typeof p.message === "string" ? p.message : "";
  const id = newElicitationId();
  if (p.mode === "url") {
    return { id, kind: "authorization", prompt, url: typeof p.url === "string" ? p.url : "" };
  }
  return { id, kind: "input", prompt, data: { schema: p.requestedSchema } };
}

/** ok ⇒ accept (content = data, or {}); reason "declined" ⇒ decline; anything else ⇒ cancel. */
export function answerToElicitResult(answer: Pick<Answer, "ok" | "data" | "reason">): ElicitResult {
  if (answer.ok) return { action: "accept", content: answer.data ?? {} };
  return answer.reason === "declined" ? { action: "decline" } : { action: "cancel" };
}

/** An agent's elicitation result as the Answer it is recorded as (the inverse of answerToElicitResult). */
export function elicitResultToAnswer(id: string, result: Record<string, unknown>): Answer | undefined {
  if (result.action === "accept") {
    const content = result.content;
    return { id, ok: true, ...(isPlainObject(content) ? { data: content } : {}) };
  }
  if (result.action === "decline") return { id, ok: false, reason: "declined" };
  if (result.action === "cancel") return { id, ok: false, reason: "cancelled" };
  return undefined;
}

/**
 * Why an elicitation's params are refused before they become a Request (limits.ts), or
 * undefined when they are within bounds. Checked by the connection before anything stores,
 * shows or serialises them; valid params map exactly as above. Never throws.
 */
export function elicitationProblem(params: unknown): string | undefined {
  const bounds = jsonBoundsProblem(params);
  if (bounds) return `the question's params are refused: ${bounds}`;
  // Absent params are a form with no schema (the page explains); JSON.stringify(undefined) is undefined.
  // Well within the size limit (the walk's upper bound says so), nothing is serialised; near it,
  // or for a value the walk cannot size, the exact text decides as before.
  const bound = params === undefined ? 2 : jsonLengthBound(params, MAX_JSON_NODES);
  if (bound === undefined || bound > MAX_BODY_BYTES) {
    const text = params === undefined ? "{}" : tryStringify(params);
    if (text === undefined) return "the question's params cannot be written as JSON";
    if (text.length > MAX_BODY_BYTES) return `the question's params are larger than ${MAX_BODY_BYTES} bytes`;
  }
  const p = (params ?? {}) as Record<string, unknown>;
  if (typeof p.message === "string" && p.message.length > MAX_PROMPT_LENGTH) {
    return `the question's message is longer than ${MAX_PROMPT_LENGTH} characters`;
  }
  if (p.mode === "url") {
    if (typeof p.url === "string" && p.url.length > MAX_URL_LENGTH) return `the question's URL is longer than ${MAX_URL_LENGTH} characters`;
    return undefined;
  }
  // A schema that is not an object is the page's to explain; only limits are refused here.
  if (typeof p.requestedSchema === "object" && p.requestedSchema !== null && !Array.isArray(p.requestedSchema)) {
    const reduced = reduceFormSchema(p.requestedSchema);
    if (!reduced.ok) return `the question's form is refused: ${reduced.problem}`;
  }
  return undefined;
}
