import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HistoryStore } from "../../../../src/main/history/store";
import { MIGRATIONS, SCHEMA_VERSION } from "../../../../src/main/history/migrations";
import { readTasks, TasksStore } from "../../../../src/main/history/tasks-store";
import type { TaskLedger } from "../../../../src/main/mcp/tasks/ledger";
import type { TaskRecord } from "../../../../src/shared/tasks";
import { until } from "../../../helpers/poll";

const dirs: string[] = [];
const closers: (() => void)[] = [];
function tempDb(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "tasks-"));
  dirs.push(dir);
  return path.join(dir, "history.sqlite");
}
function open(file: string, options: ConstructorParameters<typeof TasksStore>[1] = {}, readonly = false): { history: HistoryStore; tasks: TasksStore; log: string[] } {
  const log: string[] = [];
  const history = new HistoryStore({ path: file, readonly, busyTimeoutMs: readonly ? 2000 : 0 });
  const tasks = new TasksStore(history, { log: (l) => log.push(l), ...options });
  closers.push(() => {
    tasks.close();
    history.close();
  });
  return { history, tasks, log };
}
afterEach(() => {
  for (const close of closers.splice(0)) close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

let n = 0;
const task = (over: Partial<TaskRecord> = {}): TaskRecord => ({
  id: `tsk-${++n}`,
  server: "builder",
  tool: "build_site",
  agent: "cursor",
  taskId: `srv-${n}`,
  generation: "2025-11-25",
  state: "working",
  createdAt: 1_000_000 + n,
  ...over,
});

describe("TasksStore", () => {
  it("is a TaskLedger, and what it keeps outlives the store: a new one on the file resumes the live tasks", async () => {
    const file = tempDb();
    const first = open(file);
    const ledger: TaskLedger = first.tasks;
    const a = task({ statusMessage: "Compiling" });
    ledger.started(a);
    ledger.updated(a.id, { progress: { progress: 3, total: 10, message: "3 of 10" }, lastPolledAt: 2_000_000 });
    const b = task();
    ledger.started(b);
    ledger.updated(b.id, { state: "completed", outcome: "Built 12 pages", endedAt: 3_000_000 });
    expect(ledger.live().map((t) => t.id)).toEqual([a.id]);
    expect(ledger.live("elsewhere")).toEqual([]);
    await first.tasks.flush();
    first.tasks.close();
    first.history.close();

    const second = open(file);
    expect(second.tasks.live()).toEqual([{ ...a, progress: { progress: 3, total: 10, message: "3 of 10" }, lastPolledAt: 2_000_000 }]);
    expect(second.tasks.get(b.id)).toMatchObject({ state: "completed", outcome: "Built 12 pages", endedAt: 3_000_000 });
    expect(second.tasks.list().tasks.map((t) => t.id)).toEqual([a.id, b.id]);
  });

  it("lists live tasks first (one waiting on the person before them, then newest first), then the most recently ended, at most 50 of those", () => {
    const { tasks } = open(tempDb());
    const old = task({ createdAt: 10 });
    const recent = task({ createdAt: 20 });
    const waiting = task({ createdAt: 5, state: "input_required" });
    tasks.started(old);
    tasks.started(recent);
    tasks.started(waiting);
    for (let i = 0; i < 60; i++) {
      const t = task({ createdAt: 1 });
      tasks.started(t);
      tasks.updated(t.id, { state: "failed", endedAt: 100 + i, outcome: `error ${i}` });
    }
    const listed = tasks.list().tasks;
    expect(listed.slice(0, 3).map((t) => t.id)).toEqual([waiting.id, recent.id, old.id]);
    expect(listed).toHaveLength(53);
    expect(listed[3].outcome).toBe("error 59");
  });

  it("keeps what a server says bounded and scrubbed: long texts cut, a known secret never written, unknown states as gone", async () => {
    const file = tempDb();
    const { tasks } = open(file, { redact: <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll("hunter2", "[secret]")) as T });
    const t = task({ statusMessage: `token hunter2 ${"x".repeat(5000)}` });
    tasks.started(t);
    tasks.updated(t.id, { state: "exploded" as never, outcome: "hunter2 leaked", progress: { progress: Number.NaN } });
    await tasks.flush();
    const raw = new Database(file, { readonly: true });
    const row = raw.prepare("SELECT * FROM tasks WHERE id = ?").get(t.id) as Record<string, unknown>;
    const rows = raw.prepare("SELECT prompt, reason FROM questions").all();
    raw.close();
    expect(row.status_message).toHaveLength(1000);
    expect(JSON.stringify(row)).not.toContain("hunter2");
    expect(row).toMatchObject({ state: "gone", progress: null, outcome: "[secret] leaked" });
    expect(JSON.stringify(rows)).not.toContain("hunter2");
  });

  it("an ended task leaves a History row of kind task: completed, failed, cancelled by you, gone", async () => {
    const { history, tasks } = open(tempDb());
    const ends: [Partial<TaskRecord>, boolean][] = [
      [{ state: "completed", outcome: "Built 12 pages" }, false],
      [{ state: "failed", outcome: "Out of memory" }, false],
      [{ state: "cancelled", outcome: "cancelled by you" }, true],
      [{ state: "gone", outcome: "the server no longer knows this task" }, false],
    ];
    for (const [end, byPerson] of ends) {
      const t = task();
      tasks.started(t);
      if (byPerson) tasks.cancelling(t.id);
      tasks.updated(t.id, { ...end, endedAt: t.createdAt + 5000 });
      // A second ended update (a late poll) adds no second row.
      tasks.updated(t.id, { lastPolledAt: t.createdAt + 6000 });
    }
    await tasks.flush();
    const items = history.list({ kind: "task" }).items.reverse();
    expect(items.map((r) => [r.outcome, r.by, r.reason])).toEqual([
      ["accepted", "companion", "Built 12 pages"],
      ["declined", "companion", "Out of memory"],
      ["cancelled", "person", "cancelled by you"],
      ["withdrawn", "companion", "the server no longer knows this task"],
    ]);
    expect(items[0]).toMatchObject({ kind: "task", prompt: "Ran build_site as a background task", server: "builder", agent: "cursor", answerMs: 5000 });
    expect(history.list({ query: "build_site" }).items).toHaveLength(4);
  });

  it("with History off, ended tasks are kept in the tasks table only", async () => {
    const { history, tasks } = open(tempDb());
    history.setSettings({ enabled: false });
    const t = task();
    tasks.started(t);
    tasks.updated(t.id, { state: "completed" });
    await tasks.flush();
    expect(history.list().items).toEqual([]);
    expect(tasks.get(t.id)?.endedAt).toBeTypeOf("number");
  });

  it("while another connection holds the write lock the follower is not held up, and the changes land once it lets go", async () => {
    const file = tempDb();
    const { tasks, log } = open(file, { retryDelaysMs: [5, 10, 20] });
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    const t = task();
    expect(() => tasks.started(t)).not.toThrow();
    tasks.updated(t.id, { statusMessage: "Half way" });
    await until(() => log.some((l) => l.includes("locked by another connection")), 5000, "the lock to be logged");
    expect(tasks.get(t.id)?.statusMessage).toBe("Half way");
    other.exec("COMMIT");
    await until(() => (other.prepare("SELECT status_message FROM tasks WHERE id = ?").get(t.id) as { status_message?: string } | undefined)?.status_message === "Half way", 5000, "the row");
    other.close();
    await until(() => log.some((l) => l.includes("keeping tasks again")), 5000, "the recovery to be logged");
  });

  it("a full disk is said once and never thrown into the follower; the latest state is written once there is room", async () => {
    const file = tempDb();
    const { history, tasks, log } = open(file, { troubleRetryMs: 20 });
    tasks.started(task());
    await tasks.flush();
    // This connection may grow the file no further: SQLite answers SQLITE_FULL, as on a full disk.
    const pages = history.use("test", (prepare) => prepare("PRAGMA page_count").pluck().get() as number);
    history.use("test", (prepare) => prepare(`PRAGMA max_page_count = ${pages}`).run());
    const big = task();
    expect(() => {
      tasks.started(big);
      for (let i = 0; i < 5; i++) tasks.updated(big.id, { statusMessage: `${i} ${"y".repeat(990)}`, progress: { progress: i } });
    }).not.toThrow();
    for (let i = 0; i < 20; i++) tasks.started(task({ statusMessage: "z".repeat(1000) }));
    await until(() => log.some((l) => l.includes("could not keep tasks")), 5000, "the full disk to be logged");
    expect(log.filter((l) => l.includes("could not keep tasks"))).toHaveLength(1);
    history.use("test", (prepare) => prepare("PRAGMA max_page_count = 1073741823").run());
    await until(() => log.some((l) => l.includes("keeping tasks again")), 5000, "the recovery");
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare("SELECT progress FROM tasks WHERE id = ?").pluck().get(big.id)).toBe(JSON.stringify({ progress: 4 }));
    expect(raw.prepare("SELECT count(*) FROM tasks").pluck().get()).toBe(22);
    raw.close();
  });

  it("upgrades a version-3 file (before tasks) in place; read-only, an old file simply has no tasks", () => {
    const file = tempDb();
    const v3 = new Database(file);
    for (const m of MIGRATIONS.slice(0, 3)) m.up(v3, { fts5: true });
    v3.pragma("user_version = 3");
    v3.prepare("INSERT INTO questions (request_id, kind, prompt, fields, outcome, received_at) VALUES ('q1', 'input', 'Kept?', '[]', 'accepted', 1)").run();
    v3.close();

    const readonly = new HistoryStore({ path: file, readonly: true });
    expect(readTasks(readonly)).toEqual([]);
    readonly.close();

    const { history, tasks } = open(file);
    expect(history.list().items.map((r) => r.requestId)).toEqual(["q1"]);
    tasks.started(task());
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    // The tasks table came in at version 4; later migrations (the answering device) run too.
    expect(MIGRATIONS.find((m) => m.describe.startsWith("tasks:"))?.version).toBe(4);
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
    raw.close();
  });
});
