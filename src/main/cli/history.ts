// `toolnexus-companion history`: what the companion was asked and how each question ended, read
// from the same SQLite file the app writes (opened read-only, so it never competes with the app).
import { kindLabel, outcomeWord } from "../../shared/words";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { defaultHistoryPath } from "../history/paths";
import { HistoryStore } from "../history/store";
import type { HistoryRecord } from "../../shared/history";
import { cell, complainer, errText, out, outJson } from "./print";

export const HISTORY_USAGE = `Usage: toolnexus-companion history [--json] [--since 2026-11-01|7d|24h|30m] [--limit N] [--search WORDS] [--db PATH]

  The most recent questions, oldest first: when, how it ended and by whom, who asked, the prompt.
  --json      One JSON object per line (answers with credential-looking fields masked).
  --since     A date (local midnight), an RFC 3339 time, or an age: 7d, 24h, 30m.
  --limit     How many (default 50, at most 1000).
  --search    Words to find in prompts, servers, agents and field titles.
  --db        The history file (default ${defaultHistoryPath()}).
`;

const fail = complainer();

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Epoch ms for --since; undefined when it is not one of the accepted forms. */
export function parseSince(value: string, now: number = Date.now()): number | undefined {
  const age = /^(\d{1,6})([mhd])$/.exec(value);
  if (age) return now - Number(age[1]) * UNITS[age[2]];
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) {
    const at = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime();
    return Number.isNaN(at) ? undefined : at;
  }
  const at = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : at;
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

function localTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

function took(ms: number | undefined): string {
  if (ms === undefined) return "";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

function formatHistoryTable(records: HistoryRecord[]): string {
  const rows = records.map((r) => [
    localTime(r.receivedAt),
    outcomeWord(r.outcome, r.kind) + (r.repeats ? ` ×${r.repeats}` : "") + (r.by ? ` (${r.by}${r.device ? ` on ${r.device}` : ""})` : ""),
    cell(kindLabel(r.kind, r.requestId), 14),
    cell([r.server, r.agent].filter(Boolean).join(" / ") || "—", 28),
    took(r.answerMs),
    cell(r.prompt || "(no prompt)", 60),
  ]);
  const header = ["WHEN", "OUTCOME", "KIND", "ASKED BY", "TOOK", "PROMPT"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

export async function runHistory(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        json: { type: "boolean" },
        since: { type: "string" },
        limit: { type: "string" },
        search: { type: "string" },
        db: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(`${(error as Error).message}\n\n${HISTORY_USAGE}`);
    return 2;
  }
  const since = values.since === undefined ? undefined : parseSince(values.since);
  if (values.since !== undefined && since === undefined) {
    fail(`--since takes a date (2026-11-01), a time (RFC 3339) or an age (7d, 24h, 30m), not "${values.since}".`);
    return 2;
  }
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    fail(`--limit takes a whole number from 1 to 1000, not "${values.limit}".`);
    return 2;
  }

  const file = values.db ?? defaultHistoryPath();
  if (!existsSync(file)) {
    errText(`No history yet (${file} does not exist).\n`);
    return 0;
  }
  const store = new HistoryStore({ path: file, readonly: true, busyTimeoutMs: 2000 });
  try {
    const status = store.status();
    if (status.state !== "ok") {
      fail(`cannot read history: ${status.detail ?? "unavailable"}.`);
      return 1;
    }
    const page = store.list({ since, limit, ...(values.search ? { query: values.search } : {}) });
    const records = page.items.reverse();
    if (values.json) {
      for (const record of records) outJson(record);
    } else if (records.length === 0) {
      errText("No questions recorded in that time.\n");
    } else {
      out(formatHistoryTable(records));
      if (page.hasMore) errText(`(the ${limit} most recent; --limit or --since for others)\n`);
    }
    return 0;
  } catch (error) {
    fail(`cannot read history: ${(error as Error).message}`);
    return 1;
  } finally {
    store.close();
  }
}
