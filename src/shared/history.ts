// History as it crosses process boundaries: what is kept of one question, how it is searched, and
// the channels the History view uses. Plain data (the store, CLI, handlers and the view share it).

/** How a question ended. `pending` only while it waits (or when the app died before it ended). */
export type HistoryOutcome = "pending" | "accepted" | "declined" | "cancelled" | "expired" | "withdrawn" | "refused";

/**
 * Who settled it: the person, a rule they set, the companion itself (expiry, shutdown, refusal),
 * or the agent that asked, when its person chose that it answers its servers' questions.
 */
export type HistoryBy = "person" | "rule" | "companion" | "agent";

export const HISTORY_OUTCOMES: readonly HistoryOutcome[] = ["pending", "accepted", "declined", "cancelled", "expired", "withdrawn", "refused"];
export const HISTORY_BY: readonly HistoryBy[] = ["person", "rule", "companion", "agent"];

/** One field of a form question, as asked (never its value). */
export interface AskedField {
  key: string;
  title?: string;
  /** A choice's options whose titles differ from their values, so views show "Hero 1", not "hero-1". */
  options?: FieldOptionTitle[];
}

export interface FieldOptionTitle {
  value: string;
  title: string;
}

/** A value as the person saw it: an option's title where the field has one, else the value. */
export function titledValue(field: AskedField | undefined, value: unknown): string {
  const title = (v: unknown) => (typeof v === "string" ? (field?.options?.find((o) => o.value === v)?.title ?? v) : String(v));
  if (Array.isArray(value)) return value.map(title).join(", ");
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return title(value);
}

export interface HistoryRecord {
  /** Row id in the database. */
  rowId: number;
  /** The question's Request id (`elc-…` or the agent's own). */
  requestId: string;
  kind: string;
  prompt: string;
  server?: string;
  agent?: string;
  /** Authorization questions: the URL's origin and path only (no query, fragment or userinfo). */
  url?: string;
  fields: AskedField[];
  outcome: HistoryOutcome;
  by?: HistoryBy;
  /** The paired device the person answered on (its name then), when not the computer. */
  device?: string;
  /** Why it ended when not accepted: the answer's reason, the withdrawal message, the refusal. */
  reason?: string;
  /** The answer's data with credential-looking fields masked and URLs reduced. */
  answer?: Record<string, unknown>;
  /** Epoch ms. */
  receivedAt: number;
  settledAt?: number;
  /** settledAt − receivedAt. */
  answerMs?: number;
  /** Refusals grouped into this row (a flood from one asker); absent when 1. */
  repeats?: number;
}

export interface HistoryQuery {
  /** Words searched in prompt, server, agent and field titles (prefix match). */
  query?: string;
  kind?: string;
  outcome?: HistoryOutcome;
  server?: string;
  agent?: string;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  limit?: number;
  offset?: number;
}

export interface HistoryPage {
  items: HistoryRecord[];
  /** More rows match past this page. */
  hasMore: boolean;
}

export interface HistorySettings {
  /** Record new questions at all. */
  enabled: boolean;
  /** Rows older than this are swept (at start and daily). */
  days: number;
}

export const DEFAULT_HISTORY_SETTINGS: HistorySettings = { enabled: true, days: 90 };
export const MAX_HISTORY_DAYS = 3650;

/** What the UI can show about the store: a corrupt or locked file is reported here, not thrown. */
export interface HistoryStatus {
  state: "ok" | "unavailable";
  path: string;
  /** The last problem, in words (also logged once). */
  detail?: string;
  /** Records given up on (locked database, write failures) since start. */
  dropped: number;
  /** Whether search uses SQLite's full-text index (FTS5) or a plain LIKE scan. */
  search: "fts5" | "like";
}

/** The History view's settings and the store's health, as one value. */
export interface HistoryInfo extends HistorySettings {
  status: HistoryStatus;
}

/** The filters of history:list as the page sends them (all optional). */
export type HistoryListArg = HistoryQuery;

/**
 * The History view's invoke channels: channel → [argument, result]. contract.ts's InvokeMap
 * extends this once main serves them (see src/main/history/handlers.ts).
 */
export interface HistoryInvokeMap {
  "history:list": [HistoryListArg, HistoryPage];
  /** Forgets every recorded question; returns how many went. */
  "history:clear": [void, { removed: number }];
  /** Reads ({}) or changes the keep-history settings; returns them with the store's status. */
  "history:settings": [Partial<HistorySettings>, HistoryInfo];
}

export const HISTORY_INVOKE_CHANNELS = ["history:list", "history:clear", "history:settings"] as const satisfies readonly (keyof HistoryInvokeMap)[];
