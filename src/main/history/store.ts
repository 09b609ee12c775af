// The questions' reads and writes in the history database: insert and settle as the Inbox goes,
// list and search for the History view, sweep, clear and the settings. The file itself — opening,
// moving a corrupt one aside, the lock, closing and the size budgets — is db.ts's HistoryDb.
import {
  DEFAULT_HISTORY_SETTINGS,
  HISTORY_BY,
  HISTORY_OUTCOMES,
  MAX_HISTORY_DAYS,
  type AskedField,
  type HistoryBy,
  type HistoryOutcome,
  type HistoryPage,
  type HistoryQuery,
  type HistoryRecord,
  type HistorySettings,
} from "../../shared/history";
import { HistoryDb } from "./db";

/** A question as it arrives, ready to store (already masked): a record before the database numbers it. */
export type NewQuestion = Omit<HistoryRecord, "rowId" | "answerMs" | "repeats">;

/** How a pending question ended. */
export interface Settlement {
  outcome: Exclude<HistoryOutcome, "pending">;
  by: HistoryBy;
  /** The paired device it was answered on (its name). */
  device?: string;
  reason?: string;
  answer?: Record<string, unknown>;
  settledAt: number;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const MAX_OFFSET = 10_000_000;
const MAX_QUERY_WORDS = 16;
const MAX_QUERY_LENGTH = 500;

interface Row {
  id: number;
  request_id: string;
  kind: string;
  prompt: string;
  server: string | null;
  agent: string | null;
  url: string | null;
  fields: string;
  outcome: string;
  by: string | null;
  device: string | null;
  reason: string | null;
  answer: string | null;
  received_at: number;
  settled_at: number | null;
  answer_ms: number | null;
  repeats: number;
}

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function toRecord(row: Row): HistoryRecord {
  const record: HistoryRecord = {
    rowId: row.id,
    requestId: row.request_id,
    kind: row.kind,
    prompt: row.prompt,
    fields: parseJson<AskedField[]>(row.fields, []),
    outcome: (HISTORY_OUTCOMES as readonly string[]).includes(row.outcome) ? (row.outcome as HistoryOutcome) : "cancelled",
    receivedAt: row.received_at,
  };
  if (row.server !== null) record.server = row.server;
  if (row.agent !== null) record.agent = row.agent;
  if (row.url !== null) record.url = row.url;
  if (row.by !== null && (HISTORY_BY as readonly string[]).includes(row.by)) record.by = row.by as HistoryBy;
  if (row.device !== null) record.device = row.device;
  if (row.reason !== null) record.reason = row.reason;
  const answer = parseJson<unknown>(row.answer, undefined);
  if (answer !== null && typeof answer === "object" && !Array.isArray(answer)) record.answer = answer as Record<string, unknown>;
  if (row.settled_at !== null) record.settledAt = row.settled_at;
  if (row.answer_ms !== null) record.answerMs = row.answer_ms;
  if (row.repeats > 1) record.repeats = row.repeats;
  return record;
}

/** The person's words as an FTS5 query: every word must match as a prefix; syntax is never theirs. */
export function ftsQuery(words: string[]): string {
  return words.map((word) => `"${word.replace(/"/g, '""')}"*`).join(" ");
}

function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class HistoryStore extends HistoryDb {
  /** Settings are read on every question; they change only through setSettings. */
  private cachedSettings: HistorySettings | undefined;

  /** Inserts a question; returns its row id. */
  insert(question: NewQuestion): number {
    if (this.options.redact) question = this.options.redact(question);
    return this.run("insert", (db) => {
      const result = this.statement(
        db,
        `INSERT INTO questions (request_id, kind, prompt, server, agent, url, fields, outcome, by, device, reason, answer, received_at, settled_at, answer_ms)
         VALUES (@requestId, @kind, @prompt, @server, @agent, @url, @fields, @outcome, @by, @device, @reason, @answer, @receivedAt, @settledAt, @answerMs)`,
      ).run({
        requestId: question.requestId,
        kind: question.kind,
        prompt: question.prompt,
        server: question.server ?? null,
        agent: question.agent ?? null,
        url: question.url ?? null,
        fields: JSON.stringify(question.fields),
        outcome: question.outcome,
        by: question.by ?? null,
        device: question.device ?? null,
        reason: question.reason ?? null,
        answer: question.answer === undefined ? null : JSON.stringify(question.answer),
        receivedAt: question.receivedAt,
        settledAt: question.settledAt ?? null,
        answerMs: question.settledAt === undefined ? null : Math.max(0, question.settledAt - question.receivedAt),
      });
      return Number(result.lastInsertRowid);
    });
  }

  /** Settles the pending row of `requestId`; false when there is none (its insert was dropped). */
  settle(requestId: string, settlement: Settlement): boolean {
    if (this.options.redact) settlement = this.options.redact(settlement);
    return this.run("settle", (db) => {
      const result = this.statement(
        db,
        `UPDATE questions SET outcome = @outcome, by = @by, device = @device, reason = @reason, answer = @answer,
           settled_at = @settledAt, answer_ms = MAX(0, @settledAt - received_at)
         WHERE request_id = @requestId AND outcome = 'pending'`,
      ).run({
        requestId,
        outcome: settlement.outcome,
        by: settlement.by,
        device: settlement.device ?? null,
        reason: settlement.reason ?? null,
        answer: settlement.answer === undefined ? null : JSON.stringify(settlement.answer),
        settledAt: settlement.settledAt,
      });
      return result.changes > 0;
    });
  }

  /** Removes the pending row of `requestId` (a question counted instead of kept); false when none. */
  forgetPending(requestId: string): boolean {
    return this.run("forget", (db) => this.statement(db, "DELETE FROM questions WHERE request_id = ? AND outcome = 'pending'").run(requestId).changes > 0);
  }

  /** Counts one more refusal into row `rowId` (a flood grouped); false when the row is gone. */
  repeat(rowId: number, at: number): boolean {
    return this.run("repeat", (db) =>
      this.statement(db, "UPDATE questions SET repeats = repeats + 1, settled_at = ? WHERE id = ?").run(at, rowId).changes > 0,
    );
  }

  /** Rows left pending by a companion that stopped without closing (crash, kill): said so. */
  closeInterrupted(): number {
    return this.run("close interrupted", (db) =>
      this.statement(
        db,
        `UPDATE questions SET outcome = 'withdrawn', by = 'companion', reason = 'the companion stopped before it was answered',
           settled_at = @now, answer_ms = MAX(0, @now - received_at) WHERE outcome = 'pending'`,
      ).run({ now: this.now() }).changes,
    );
  }

  list(query: HistoryQuery = {}): HistoryPage {
    return this.run("list", (db) => {
      const where: string[] = [];
      const params: unknown[] = [];
      const words = (query.query ?? "").slice(0, MAX_QUERY_LENGTH).split(/\s+/).filter(Boolean).slice(0, MAX_QUERY_WORDS);
      if (words.length > 0 && this.fts) {
        where.push("id IN (SELECT rowid FROM questions_fts WHERE questions_fts MATCH ?)");
        params.push(ftsQuery(words));
      } else {
        for (const word of words) {
          where.push("(prompt LIKE ? ESCAPE '\\' OR server LIKE ? ESCAPE '\\' OR agent LIKE ? ESCAPE '\\' OR fields LIKE ? ESCAPE '\\')");
          const pattern = likePattern(word);
          params.push(pattern, pattern, pattern, pattern);
        }
      }
      for (const [column, value] of [["kind", query.kind], ["outcome", query.outcome], ["server", query.server], ["agent", query.agent]] as const) {
        if (value !== undefined && value !== "") {
          where.push(`${column} = ?`);
          params.push(value);
        }
      }
      if (query.since !== undefined) {
        where.push("received_at >= ?");
        params.push(query.since);
      }
      if (query.until !== undefined) {
        where.push("received_at < ?");
        params.push(query.until);
      }
      const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(query.limit ?? DEFAULT_LIMIT)));
      const offset = Math.min(MAX_OFFSET, Math.max(0, Math.floor(query.offset ?? 0)));
      const sql = `SELECT * FROM questions${where.length ? ` WHERE ${where.join(" AND ")}` : ""}
        ORDER BY received_at DESC, id DESC LIMIT ? OFFSET ?`;
      const rows = this.statement(db, sql).all(...params, limit + 1, offset) as Row[];
      return { items: rows.slice(0, limit).map(toRecord), hasMore: rows.length > limit };
    });
  }

  /** Deletes rows received before `days` ago (pending ones stay); returns how many. */
  sweep(days: number): number {
    const cutoff = this.now() - days * 24 * 60 * 60 * 1000;
    return this.run("sweep", (db) => {
      const removed = this.statement(db, "DELETE FROM questions WHERE received_at < ? AND outcome != 'pending'").run(cutoff).changes;
      // Merge the index's segments so swept words leave the file too (secure_delete does the rows).
      if (removed > 0 && this.fts) db.exec("INSERT INTO questions_fts (questions_fts) VALUES ('optimize')");
      return removed;
    });
  }

  /** Forgets everything recorded; returns how many rows went. */
  clear(): number {
    return this.run("clear", (db) => {
      const removed = db.transaction(() => {
        const changes = this.statement(db, "DELETE FROM questions").run().changes;
        if (this.fts) db.exec("INSERT INTO questions_fts (questions_fts) VALUES ('delete-all')");
        return changes;
      })();
      // Leave nothing of the old rows in the write-ahead log either.
      db.pragma("wal_checkpoint(TRUNCATE)");
      return removed;
    });
  }

  settings(): HistorySettings {
    if (!this.db) return { ...DEFAULT_HISTORY_SETTINGS };
    if (this.cachedSettings) return { ...this.cachedSettings };
    try {
      const rows = this.statement(this.db, "SELECT key, value FROM settings").all() as { key: string; value: string }[];
      const map = new Map(rows.map((r) => [r.key, r.value]));
      const days = Number(map.get("days"));
      this.cachedSettings = {
        enabled: map.has("enabled") ? map.get("enabled") === "1" : DEFAULT_HISTORY_SETTINGS.enabled,
        days: Number.isInteger(days) && days >= 1 && days <= MAX_HISTORY_DAYS ? days : DEFAULT_HISTORY_SETTINGS.days,
      };
      return { ...this.cachedSettings };
    } catch {
      return { ...DEFAULT_HISTORY_SETTINGS };
    }
  }

  setSettings(change: Partial<HistorySettings>): HistorySettings {
    if (change.days !== undefined && (!Number.isInteger(change.days) || change.days < 1 || change.days > MAX_HISTORY_DAYS)) {
      throw new RangeError(`Days to keep must be a whole number from 1 to ${MAX_HISTORY_DAYS}.`);
    }
    this.cachedSettings = undefined;
    this.run("settings", (db) => {
      const put = this.statement(db, "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
      db.transaction(() => {
        if (change.enabled !== undefined) put.run("enabled", change.enabled ? "1" : "0");
        if (change.days !== undefined) put.run("days", String(change.days));
      })();
    });
    return this.settings();
  }

  protected override shut(): void {
    this.cachedSettings = undefined;
    super.shut();
  }
}
