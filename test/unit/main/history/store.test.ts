import Database from "better-sqlite3";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HistoryStore, type NewQuestion } from "../../../../src/main/history/store";
import { MIGRATIONS, SCHEMA_VERSION } from "../../../../src/main/history/migrations";
import { defaultHistoryPath } from "../../../../src/main/history/paths";

const dirs: string[] = [];
const stores: HistoryStore[] = [];
function tempDb(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "history-"));
  dirs.push(dir);
  return path.join(dir, "nested", "history.sqlite");
}
function open(file: string, extra: Partial<ConstructorParameters<typeof HistoryStore>[0]> = {}): HistoryStore {
  const store = new HistoryStore({ path: file, ...extra });
  stores.push(store);
  return store;
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const DAY = 24 * 60 * 60 * 1000;
const q = (over: Partial<NewQuestion> = {}): NewQuestion => ({
  requestId: `elc-${Math.random().toString(36).slice(2)}`,
  kind: "input",
  prompt: "Which branch should I deploy?",
  server: "github",
  fields: [{ key: "branch", title: "Branch" }],
  outcome: "accepted",
  by: "person",
  receivedAt: Date.now(),
  settledAt: Date.now() + 1500,
  ...over,
});

describe("HistoryStore", () => {
  it("creates the file in WAL mode at the current schema version, readable only by its owner", () => {
    const file = tempDb();
    const store = open(file);
    expect(store.status()).toMatchObject({ state: "ok", path: file, search: "fts5" });
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
    if (process.platform !== "win32") expect(statSync(file).mode & 0o077).toBe(0);
  });

  it("stores, settles and lists questions newest first, with time to answer", () => {
    const store = open(tempDb());
    const t = Date.now();
    store.insert(q({ requestId: "a", outcome: "pending", by: undefined, settledAt: undefined, receivedAt: t - 5000 }));
    store.insert(q({ requestId: "b", receivedAt: t - 1000, settledAt: t }));
    expect(store.settle("a", { outcome: "declined", by: "person", reason: "declined", settledAt: t - 2000 })).toBe(true);
    expect(store.settle("a", { outcome: "accepted", by: "person", settledAt: t })).toBe(false); // settled once
    const { items, hasMore } = store.list();
    expect(hasMore).toBe(false);
    expect(items.map((r) => [r.requestId, r.outcome, r.answerMs])).toEqual([["b", "accepted", 1000], ["a", "declined", 3000]]);
    expect(items[1]).toMatchObject({ by: "person", reason: "declined", server: "github", fields: [{ key: "branch", title: "Branch" }] });
  });

  it("filters by kind, outcome, server, agent and time, searches words by prefix, and pages", () => {
    const store = open(tempDb());
    const t = Date.now();
    store.insert(q({ requestId: "1", prompt: "Deploy the release branch?", server: "github", agent: "cursor", receivedAt: t - 3 * DAY }));
    store.insert(q({ requestId: "2", prompt: "Sign in to Jira", kind: "authorization", fields: [], server: "jira", outcome: "expired", by: "companion", receivedAt: t - DAY }));
    store.insert(q({ requestId: "3", prompt: "Pick a reviewer", server: "github", agent: "claude-code", outcome: "declined", receivedAt: t }));
    const ids = (query: Parameters<HistoryStore["list"]>[0]) => store.list(query).items.map((r) => r.requestId);
    expect(ids({ query: "depl" })).toEqual(["1"]);
    expect(ids({ query: "jira" })).toEqual(["2"]); // server names are searched too
    expect(ids({ query: "branch" })).toEqual(["3", "1"]); // field titles are searched too
    expect(ids({ query: 'pick "reviewer' })).toEqual(["3"]); // quotes are words, never FTS syntax
    expect(ids({ kind: "authorization" })).toEqual(["2"]);
    expect(ids({ outcome: "declined" })).toEqual(["3"]);
    expect(ids({ server: "github" })).toEqual(["3", "1"]);
    expect(ids({ agent: "cursor" })).toEqual(["1"]);
    expect(ids({ since: t - 2 * DAY })).toEqual(["3", "2"]);
    expect(ids({ until: t - 2 * DAY })).toEqual(["1"]);
    expect(store.list({ limit: 2 })).toMatchObject({ hasMore: true });
    expect(ids({ limit: 2, offset: 2 })).toEqual(["1"]);
  });

  it("searches with LIKE where FTS5 is not used, with % and _ taken literally", () => {
    const store = open(tempDb(), { noFts: true });
    expect(store.status().search).toBe("like");
    store.insert(q({ requestId: "1", prompt: "Raise the limit to 50%" }));
    store.insert(q({ requestId: "2", prompt: "Raise the limit to 500" }));
    expect(store.list({ query: "50%" }).items.map((r) => r.requestId)).toEqual(["1"]);
    expect(store.list({ query: "raise" }).items).toHaveLength(2);
  });

  it("sweeps rows older than the days to keep, and keeps pending ones", () => {
    const store = open(tempDb());
    const t = Date.now();
    store.insert(q({ requestId: "old", prompt: "ancient question", receivedAt: t - 100 * DAY }));
    store.insert(q({ requestId: "old-pending", outcome: "pending", receivedAt: t - 100 * DAY }));
    store.insert(q({ requestId: "new", receivedAt: t - 89 * DAY }));
    expect(store.sweep(90)).toBe(1);
    expect(store.list().items.map((r) => r.requestId).sort()).toEqual(["new", "old-pending"]);
    expect(store.list({ query: "ancient" }).items).toEqual([]); // gone from the index too
  });

  it("clears everything", () => {
    const store = open(tempDb());
    store.insert(q());
    store.insert(q());
    expect(store.clear()).toBe(2);
    expect(store.list().items).toEqual([]);
    expect(store.list({ query: "deploy" }).items).toEqual([]);
  });

  it("keeps its settings in the file: on by default, 90 days; validated", () => {
    const file = tempDb();
    const store = open(file);
    expect(store.settings()).toEqual({ enabled: true, days: 90 });
    expect(store.setSettings({ enabled: false, days: 7 })).toEqual({ enabled: false, days: 7 });
    expect(() => store.setSettings({ days: 0 })).toThrow(/1 to/);
    store.close();
    expect(open(file).settings()).toEqual({ enabled: false, days: 7 });
  });

  it("upgrades a version-1 file to the current schema, keeping and indexing its rows", () => {
    const file = tempDb();
    open(file).close(); // creates the folder
    rmSync(file);
    for (const suffix of ["-wal", "-shm"]) rmSync(file + suffix, { force: true });
    const v1 = new Database(file);
    MIGRATIONS[0].up(v1, { fts5: true });
    v1.pragma("user_version = 1");
    v1.prepare("INSERT INTO questions (request_id, kind, prompt, server, fields, outcome, received_at, settled_at, answer_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .run("old-1", "input", "Approve the migration plan?", "db", "[]", "accepted", Date.now() - 1000, Date.now(), 1000);
    v1.close();

    const store = open(file);
    expect(store.status().state).toBe("ok");
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
    expect(store.list({ query: "migration" }).items).toMatchObject([{ requestId: "old-1", outcome: "accepted", by: "person", answerMs: 1000 }]);
    store.insert(q({ requestId: "new" }));
    expect(store.list().items).toHaveLength(2);
  });

  it("refuses a file from a newer companion without touching it", () => {
    const file = tempDb();
    open(file).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const lines: string[] = [];
    const store = open(file, { log: (l) => lines.push(l) });
    expect(store.status()).toMatchObject({ state: "unavailable", detail: expect.stringMatching(/newer companion/) });
    expect(() => store.list()).toThrow(/unavailable/);
    expect(readdirSync(path.dirname(file)).some((f) => f.includes("corrupt"))).toBe(false);
  });

  it("moves a file that is not a database aside and starts afresh", () => {
    const file = tempDb();
    open(file).close();
    for (const suffix of ["-wal", "-shm"]) rmSync(file + suffix, { force: true });
    writeFileSync(file, Buffer.from("this is not SQLite at all, just garbage ".repeat(200)));
    const lines: string[] = [];
    const store = open(file, { log: (l) => lines.push(l) });
    expect(store.status().state).toBe("ok");
    const aside = readdirSync(path.dirname(file)).filter((f) => f.startsWith("history.sqlite.corrupt-"));
    expect(aside).toHaveLength(1);
    expect(lines.join("\n")).toMatch(/moved the corrupt database aside/);
    store.insert(q());
    expect(store.list().items).toHaveLength(1);
  });

  it("finds the data folder per platform, overridable", () => {
    expect(defaultHistoryPath({}, "linux", "/home/a")).toBe("/home/a/.local/share/toolnexus-companion/history.sqlite");
    expect(defaultHistoryPath({ XDG_DATA_HOME: "/x" }, "linux", "/home/a")).toBe("/x/toolnexus-companion/history.sqlite");
    expect(defaultHistoryPath({}, "darwin", "/Users/a")).toBe("/Users/a/Library/Application Support/Toolnexus Companion/history.sqlite");
    expect(defaultHistoryPath({ APPDATA: "C:\\AppData" }, "win32", "C:\\Users\\a")).toContain("Toolnexus Companion");
    expect(defaultHistoryPath({ TOOLNEXUS_HISTORY_DB: "/tmp/h.sqlite" }, "linux", "/home/a")).toBe("/tmp/h.sqlite");
  });
});

describe("HistoryStore that cannot open", () => {
  it("reports unavailable, logs once, and retries on later writes", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "history-"));
    dirs.push(dir);
    const blocker = path.join(dir, "file");
    writeFileSync(blocker, "a file where a folder should be");
    let now = 0;
    const lines: string[] = [];
    const store = open(path.join(blocker, "history.sqlite"), { log: (l) => lines.push(l), now: () => now });
    expect(store.status()).toMatchObject({ state: "unavailable", detail: expect.stringMatching(/could not open/) });
    for (let i = 0; i < 5; i++) {
      now += 10_000;
      expect(() => store.insert(q())).toThrow(/unavailable/);
    }
    expect(lines).toHaveLength(1);
    rmSync(blocker);
    now += 10_000;
    store.insert(q());
    expect(store.status().state).toBe("ok");
    expect(store.list().items).toHaveLength(1);
  });
});
