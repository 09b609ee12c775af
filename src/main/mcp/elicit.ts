// The elicitation bridge (seeds: rust/src/mcp/elicit.rs, McpSource.java): an MCP server's
// `elicitation/create` becomes one §10 Request, and the person's Answer becomes its ElicitResult.
// Pure functions; the seeds' mapping tables are the law here.
import { randomUUID } from "node:crypto";
import type { Answer, Request } from "../../shared/types";

export type ElicitResult =
  | { action: "accept"; content: Record<string, unknown> }
  | { action: "decline" }
  | { action: "cancel" };

/** A fresh request id per elicitation: `elc-` and a random UUID, so ids never collide. */
export function newElicitationId(): string {
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
