// A question and how it ended, as history keeps them: prompt and URL without query tokens, fields
// without values, an answer masked by its schema, reasons cut to length.
import type { Answer, InboxEvent, PendingEntry, Request } from "../../shared/types";
import { MAX_PROMPT_LENGTH } from "../../shared/limits";
import { maskAnswer, reduceUrl, reduceUrlsIn } from "./mask";
import { fieldsAsked } from "../../forms/fields-asked";
import type { NewQuestion, Settlement } from "./store";
import { HISTORY_BY, type HistoryBy } from "../../shared/history";

/** The question as history keeps it: prompt and URL without query tokens, fields without values. */
export function questionRecord(request: Request, source: PendingEntry["source"], receivedAt: number): NewQuestion {
  const question: NewQuestion = {
    requestId: String(request.id).slice(0, 512),
    kind: String(request.kind).slice(0, 100),
    // Cut before reducing too: a refused question's prompt has not been bounded by anyone.
    prompt: reduceUrlsIn(String(request.prompt ?? "").slice(0, MAX_PROMPT_LENGTH * 2)).slice(0, MAX_PROMPT_LENGTH),
    fields: request.kind === "input" ? fieldsAsked(request.data?.schema) : [],
    outcome: "pending",
    receivedAt,
  };
  if (source.server !== undefined) question.server = String(source.server).slice(0, 200);
  if (source.agent !== undefined) question.agent = String(source.agent).slice(0, 200);
  const url = typeof request.url === "string" ? reduceUrl(request.url) : undefined;
  if (url !== undefined) question.url = url;
  return question;
}

export function answerSettlement(answer: Answer, schema: unknown, by: HistoryBy, settledAt: number): Settlement {
  if (answer.ok) {
    // URL mode carries no data: "accepted" is the whole of it (the person consented to open it).
    return answer.data ? { outcome: "accepted", by, answer: maskAnswer(answer.data, schema), settledAt } : { outcome: "accepted", by, settledAt };
  }
  const reason = answer.reason ?? "cancelled";
  const outcome = reason === "declined" ? "declined" : reason === "expired" ? "expired" : "cancelled";
  return { outcome, by, reason: reason.slice(0, 1000), settledAt };
}

export function withdrawSettlement(event: Extract<InboxEvent, { type: "withdrawn" }>, settledAt: number): Settlement {
  const outcome = event.reason === "expired" ? "expired" : event.reason === "closed" ? "cancelled" : "withdrawn";
  return { outcome, by: "companion", reason: (event.message ?? event.reason).slice(0, 1000), settledAt };
}

/** Who settled it, when the Inbox event says (and names one history knows). */
export function eventBy(event: InboxEvent): HistoryBy | undefined {
  const by = (event as { by?: unknown }).by;
  return typeof by === "string" && (HISTORY_BY as readonly string[]).includes(by) ? (by as HistoryBy) : undefined;
}
