// The person's Answer as a hook verdict, mapped as an Answer maps everywhere (shared/types.ts;
// for a server, mcp/elicit.ts): ok: true is Allow; ok: false with
// reason "declined" is Deny (data.message goes back to the agent); everything else — cancelled,
// expired, "answer in the terminal", an answer for another id, anything malformed — is no verdict,
// so the agent asks in its own terminal. Nothing here ever turns a doubt into an allow.
import { asPlainObject, isPlainObject } from "../../shared/unknown-value";

export type Verdict = { kind: "allow" } | { kind: "deny"; message: string } | { kind: "none"; why: string };

/** What the agent's model reads when the person denied without a message. */
const DEFAULT_DENY_MESSAGE = "The person denied this in Toolnexus Companion.";
/** A deny message longer than this is cut: it is a note to the model, not a document. */
const MAX_DENY_MESSAGE_CHARS = 2000;

export function answerToVerdict(answer: unknown, id: string): Verdict {
  if (!isPlainObject(answer)) return { kind: "none", why: "the companion's reply is not an Answer" };
  const { id: answeredId, ok, reason, data } = answer;
  if (answeredId !== id) return { kind: "none", why: `the reply answers ${JSON.stringify(answeredId)}, not this question` };
  if (ok === true) return { kind: "allow" };
  if (ok !== false) return { kind: "none", why: "the reply has no ok: true or false" };
  if (reason !== "declined") return { kind: "none", why: `the question ended without a verdict (${typeof reason === "string" ? reason : "no reason"})` };
  const raw = asPlainObject(data).message;
  const message = typeof raw === "string" ? raw.trim().slice(0, MAX_DENY_MESSAGE_CHARS) : "";
  return { kind: "deny", message: message || DEFAULT_DENY_MESSAGE };
}
