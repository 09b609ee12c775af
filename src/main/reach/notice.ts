// The one text every notification carries about a question (Web Push, ntfy, Slack, Discord,
// Matrix, email): who asks and the start of the prompt, or less if the person chose less. Never a
// form's values, the schema, a URL the question carries, or anything the scrubber knows as secret.
import type { PendingEntry } from "../../shared/types";
import type { ReachDetail } from "../../shared/reach";
import type { Notice } from "./types";

/** A phone's lock screen shows about this much; the rest is on the page. */
const MAX_BODY = 140;
const MAX_ASKER = 60;
export const WAITING = "A question is waiting";
const APPROVAL_KIND = "approval";

/** Letters and ordinary spaces only: no control characters, no line breaks, no bidi overrides. */
export function plainLine(text: string, max: number): string {
  const line = text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, " ").replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** Who asks, scrubbed whole before it is cut (a cut could split a secret so no part of it matches). */
export function askerOf(entry: PendingEntry, scrub: (text: string) => string): string {
  const { agent, server } = entry.source;
  return plainLine(scrub(agent && server ? `${agent} via ${server}` : (agent ?? server ?? "An agent")), MAX_ASKER);
}

/** The question on the device listener's page (its route `#/q/<id>` opens that question). */
export function questionLink(base: string | undefined, id: string): string | undefined {
  if (!base) return undefined;
  return `${base.replace(/\/+$/, "")}/#/q/${encodeURIComponent(id)}`;
}

export interface NoticeOptions {
  detail: ReachDetail;
  linkBase?: string;
  /** The egress's scrub (app/egress.ts): every text leaves through it. */
  scrub: (text: string) => string;
}

export function noticeFor(entry: PendingEntry, options: NoticeOptions): Notice {
  const { request } = entry;
  const approval = request.kind === APPROVAL_KIND;
  const url = questionLink(options.linkBase, request.id);
  const base = { id: request.id, approval, ...(url ? { url } : {}) };
  if (options.detail === "none") return { ...base, title: WAITING, body: "Open the companion to answer it." };
  const asker = askerOf(entry, options.scrub);
  const title = approval ? `${asker} asks for approval` : `${asker} asks`;
  if (options.detail === "asker") return { ...base, title, body: WAITING };
  return { ...base, title, body: plainLine(options.scrub(request.prompt), MAX_BODY) || WAITING };
}
