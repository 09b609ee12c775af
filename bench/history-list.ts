// How fast is the History view's query over a full history? 10,000 questions in a real WAL file
// (90 days of them, 6 servers, 4 agents, every outcome), then HistoryStore.list() for the page
// the view asks for (100 rows) under each filter, against a baseline measured in the same run:
// the same records in an in-memory array, filtered, sorted newest first and sliced in JS.
//
//   npx tsx bench/history-list.ts [--rows 10000] [--reps 60]
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { HistoryStore, type NewQuestion } from "../src/main/history/store";
import type { HistoryQuery } from "../src/shared/history";
import { summarize } from "./lib/stats";
import { fixed, formatTable } from "./lib/table";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}

const ROWS = flag("rows", 10_000);
const REPS = flag("reps", 60);
const DAY = 86_400_000;
const servers = ["github", "jira", "linear", "postgres", "sentry", "slack"];
const agents = ["claude-code", "cursor", "codex", "windsurf"];
const outcomes = ["accepted", "accepted", "accepted", "declined", "cancelled", "expired", "withdrawn", "refused"] as const;
const verbs = ["Deploy", "Merge", "Approve", "Delete", "Rename", "Archive", "Rollback", "Migrate"];
const things = ["the release branch", "pull request", "the staging database", "issue", "the incident", "channel", "the invoice", "schema"];

const now = Date.now();
const records: NewQuestion[] = [];
for (let i = 0; i < ROWS; i++) {
  const outcome = outcomes[i % outcomes.length];
  const received = now - Math.floor(((i * 7919) % ROWS) / ROWS * 89 * DAY);
  records.push({
    requestId: `elc-${i}`,
    kind: i % 10 === 0 ? "authorization" : "input",
    prompt: `${verbs[i % verbs.length]} ${things[(i * 3) % things.length]} #${i}?${i % 500 === 0 ? " (quarterly compliance)" : ""}`,
    server: servers[i % servers.length],
    agent: agents[(i * 5) % agents.length],
    fields: [{ key: "target", title: "Target" }, { key: "note", title: "Note" }],
    outcome,
    by: outcome === "accepted" || outcome === "declined" ? "person" : "companion",
    answer: outcome === "accepted" ? { target: "main", note: "ok" } : undefined,
    receivedAt: received,
    settledAt: received + 1000 + (i % 60_000),
  });
}

const cases: [string, HistoryQuery][] = [
  ["newest 100", { limit: 100 }],
  ["search one word", { query: "rollback", limit: 100 }],
  ["search rare words", { query: "quarterly complian", limit: 100 }],
  ["outcome + server", { outcome: "declined", server: "jira", limit: 100 }],
  ["last 7 days", { since: now - 7 * DAY, limit: 100 }],
  ["page at offset 9000", { limit: 100, offset: 9000 }],
];

// The baseline: the same query over plain objects in memory, their search text prepared once.
const texts = new Map(records.map((r) => [r, `${r.prompt} ${r.server} ${r.agent} ${JSON.stringify(r.fields)}`.toLowerCase()]));
function inMemory(q: HistoryQuery): NewQuestion[] {
  const words = (q.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  return records
    .filter((r) => {
      if (q.outcome && r.outcome !== q.outcome) return false;
      if (q.server && r.server !== q.server) return false;
      if (q.since !== undefined && r.receivedAt < q.since) return false;
      const text = texts.get(r)!;
      return words.every((w) => text.includes(w));
    })
    .sort((a, b) => b.receivedAt - a.receivedAt)
    .slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 100));
}

function time(fn: () => unknown): number[] {
  for (let i = 0; i < 5; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return samples;
}

const dir = mkdtempSync(path.join(tmpdir(), "bench-history-list-"));
try {
  const file = path.join(dir, "history.sqlite");
  const fill = new HistoryStore({ path: file });
  const t0 = performance.now();
  for (const r of records) fill.insert(r);
  const fillMs = performance.now() - t0;
  fill.close();

  const fts = new HistoryStore({ path: file });
  const like = new HistoryStore({ path: file, noFts: true });
  const rows: (string | number)[][] = [];
  for (const [name, query] of cases) {
    const base = summarize(time(() => inMemory(query)));
    const a = summarize(time(() => fts.list(query)));
    const counts = `${fts.list(query).items.length}/${inMemory(query).length}`;
    const row = [name, counts, fixed(base.p50, 2), fixed(a.p50, 2), fixed(a.p50 / base.p50, 2)];
    if (query.query) {
      const b = summarize(time(() => like.list(query)));
      row.push(fixed(b.p50, 2), fixed(b.p50 / base.p50, 2));
    } else row.push("", "");
    rows.push(row);
  }
  fts.close();
  like.close();
  console.log(`history-list: ${ROWS} records in a WAL file (filled in ${fixed(fillMs / 1000, 1)} s, ${fixed((fillMs * 1000) / ROWS, 0)} µs/row); p50 of ${REPS} queries each, in ms`);
  console.log(formatTable(["query", "rows (db/mem)", "array p50", "sqlite p50", "ratio", "LIKE p50", "ratio"], rows));
  console.log(`machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
