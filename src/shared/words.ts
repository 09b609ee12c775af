// One vocabulary for every view (Inbox, History, notifications, the tray, the CLI): what a
// question is called and how it ended. A link question is a "Link" unless it is the companion's
// own OAuth sign-in (src/main/auth/session.ts gives those ids the SIGN_IN_ID_PREFIX), and a "no"
// never reads like a "yes": each outcome has a tone the views colour by.
import type { HistoryOutcome } from "./history";

/** Ids of the companion's own OAuth sign-in questions start with this. */
export const SIGN_IN_ID_PREFIX = "signin-";

export function isSignIn(request: { id: string; kind: string }): boolean {
  return request.kind === "authorization" && request.id.startsWith(SIGN_IN_ID_PREFIX);
}

/** "Form", "Link", "Sign-in", "Approval", or an agent's own kind as it wrote it. */
export function kindLabel(kind: string, id = ""): string {
  if (kind === "input") return "Form";
  if (kind === "authorization") return isSignIn({ id, kind }) ? "Sign-in" : "Link";
  if (kind === "approval") return "Approval";
  if (kind === "task") return "Task";
  return kind;
}

/** How a question ended, in the same words everywhere; approvals are allowed or denied. */
export function outcomeWord(outcome: HistoryOutcome, kind = ""): string {
  if (kind === "approval" && outcome === "accepted") return "Allowed";
  if (kind === "approval" && outcome === "declined") return "Denied";
  if (kind === "task") return TASK_OUTCOME_WORDS[outcome] ?? OUTCOME_WORDS[outcome];
  return OUTCOME_WORDS[outcome];
}

const OUTCOME_WORDS: Record<HistoryOutcome, string> = {
  pending: "Waiting",
  accepted: "Accepted",
  declined: "Declined",
  cancelled: "Cancelled",
  expired: "Expired",
  withdrawn: "Withdrawn",
  refused: "Refused",
};

/** An ended task's History row (history/tasks-records.ts maps a task's state onto these outcomes). */
const TASK_OUTCOME_WORDS: Partial<Record<HistoryOutcome, string>> = {
  pending: "Running",
  accepted: "Completed",
  declined: "Failed",
  withdrawn: "Gone",
};

/** yes: green; no: red; ended without an answer: grey; still open: the accent. */
export type OutcomeTone = "yes" | "no" | "ended" | "open";

export function outcomeTone(outcome: HistoryOutcome): OutcomeTone {
  if (outcome === "accepted") return "yes";
  if (outcome === "declined" || outcome === "refused") return "no";
  if (outcome === "pending") return "open";
  return "ended";
}
