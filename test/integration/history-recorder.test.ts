// History recorded through a real Inbox into real SQLite files in temp dirs: every outcome, the
// masking and URL reduction as they land on disk, and the failures that must never reach the
// person's answer (a locked file, a corrupt one).
import Database from "better-sqlite3";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Inbox } from "../../src/main/inbox";
import { attachHistory, type HistoryRecorder } from "../../src/main/history/recorder";
import { HistoryStore } from "../../src/main/history/store";
import { openHistory } from "../../src/main/history/open";
import { MASK } from "../../src/main/history/mask";
import type { Request } from "../../src/shared/types";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function setup(options: { garbage?: boolean; retryDelaysMs?: number[]; answeredBy?: () => "rule" | undefined } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "history-int-"));
  const file = path.join(dir, "history.sqlite");
  if (options.garbage) writeFileSync(file, "garbage, not a database ".repeat(100));
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  const store = new HistoryStore({ path: file, log });
  const inbox = new Inbox();
  const recorder: HistoryRecorder = attachHistory(inbox, store, { log, retryDelaysMs: options.retryDelaysMs ?? [5, 5], answeredBy: options.answeredBy });
  cleanups.push(() => {
    recorder.stop();
    inbox.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, file, lines, store, inbox, recorder };
}

const schema = {
  type: "object",
  properties: {
    user: { type: "string", title: "User" },
    password: { type: "string", title: "Password" },
    code: { type: "string", title: "Code", format: "password" },
    count: { type: "integer", title: "How many" },
  },
  required: ["user"],
};
const form = (id: string, prompt = "Log in to the build server"): Request => ({ id, kind: "input", prompt, data: { schema } });

describe("history through a real Inbox", () => {
  it("records an accepted form with who asked, the fields, the masked answer and the time to answer", async () => {
    const { inbox, store, recorder, file } = setup();
    const answer = inbox.waitFor(form("q1"), { source: { server: "ci", agent: "cursor" } });
    await new Promise((r) => setTimeout(r, 20));
    inbox.answer("q1", { ok: true, data: { user: "ada", password: "hunter2-SECRET", code: "999111", count: 2 } });
    expect(await answer).toMatchObject({ ok: true });
    await recorder.flush();
    const [row] = store.list().items;
    expect(row).toMatchObject({
      requestId: "q1",
      kind: "input",
      server: "ci",
      agent: "cursor",
      prompt: "Log in to the build server",
      outcome: "accepted",
      by: "person",
      fields: [{ key: "user", title: "User" }, { key: "password", title: "Password" }, { key: "code", title: "Code" }, { key: "count", title: "How many" }],
      answer: { user: "ada", password: MASK, code: MASK, count: 2 },
    });
    expect(row.answerMs).toBeGreaterThanOrEqual(15);
    store.close();
    const onDisk = Buffer.concat([file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f))).toString("latin1");
    expect(onDisk).not.toContain("hunter2-SECRET");
    expect(onDisk).not.toContain("999111");
  });

  it("records a URL question by its origin and path only, and the consent as the action", async () => {
    const { inbox, store, recorder, file } = setup();
    const request: Request = { id: "u1", kind: "authorization", prompt: "Authorize at https://auth.test/authorize?client_id=x&state=STATE-TOKEN", url: "https://auth.test/authorize?client_id=x&state=STATE-TOKEN#frag" };
    const answer = inbox.waitFor(request, { source: { server: "jira" } });
    inbox.answer("u1", { ok: true });
    await answer;
    await recorder.flush();
    expect(store.list().items[0]).toMatchObject({ kind: "authorization", url: "https://auth.test/authorize", prompt: "Authorize at https://auth.test/authorize", outcome: "accepted" });
    expect(store.list().items[0].answer).toBeUndefined();
    store.close();
    const onDisk = Buffer.concat([file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f))).toString("latin1");
    expect(onDisk).not.toContain("STATE-TOKEN");
  });

  it("records every other outcome and who settled it", async () => {
    const { inbox, store, recorder } = setup({ answeredBy: () => undefined });
    const declined = inbox.waitFor(form("d"), { source: { server: "s" } });
    inbox.answer("d", { ok: false, reason: "declined" });
    const dismissed = inbox.waitFor(form("c"), { source: { server: "s" } });
    inbox.answer("c", { ok: false });
    const expired = inbox.waitFor({ ...form("e"), expiresAt: new Date(Date.now() + 200).toISOString() }, { source: { server: "s" } });
    const abort = new AbortController();
    const withdrawn = inbox.waitFor(form("w"), { source: { server: "s" }, signal: abort.signal });
    abort.abort(new Error("the server stopped waiting"));
    const closed = inbox.waitFor(form("z"), { source: { agent: "claude-code" } });
    const duplicate = inbox.waitFor(form("z"), { source: { server: "s" } }); // same id as a pending one
    await Promise.all([declined, dismissed, withdrawn, duplicate]);
    expect(await expired).toMatchObject({ ok: false, reason: "expired" });
    inbox.close();
    await closed;
    await recorder.flush();
    const byId = new Map(store.list().items.map((r) => [`${r.requestId}:${r.outcome}`, r]));
    expect(byId.get("d:declined")).toMatchObject({ by: "person", reason: "declined" });
    expect(byId.get("c:cancelled")).toMatchObject({ by: "person", reason: "cancelled" });
    expect(byId.get("e:expired")).toMatchObject({ by: "companion", reason: "the question expired" });
    expect(byId.get("w:withdrawn")).toMatchObject({ by: "companion", reason: "the server stopped waiting" });
    expect(byId.get("z:refused")).toMatchObject({ by: "companion", reason: expect.stringMatching(/already pending/) });
    expect(byId.get("z:cancelled")).toMatchObject({ by: "companion", agent: "claude-code", reason: "the companion is shutting down" });
    expect(byId.size).toBe(6);
  });

  it("on shutdown, stop() writes what the close withdrew before the store closes", async () => {
    const { inbox, store, recorder, file } = setup();
    const pending = inbox.waitFor(form("bye"), { source: { server: "s" } });
    inbox.close();
    await pending;
    recorder.stop();
    store.close();
    const again = new HistoryStore({ path: file });
    cleanups.push(() => again.close());
    expect(again.list().items.map((r) => [r.requestId, r.outcome, r.by])).toEqual([["bye", "cancelled", "companion"]]);
  });

  it("keeps the first refusals of a flood from one asker whole, then counts the rest in one row", async () => {
    const { inbox, store, recorder } = setup();
    const asked = Array.from({ length: 30 }, (_, i) => inbox.waitFor(form(`f${i}`), { source: { server: "noisy" } }));
    const other = inbox.waitFor(form("calm"), { source: { server: "calm" } });
    await recorder.flush();
    // Newest first: the count row (f11 onwards, 19 refusals), then f10, f9, f8 whole.
    const refused = store.list({ outcome: "refused" }).items;
    expect(refused.map((r) => r.requestId)).toEqual(["f11", "f10", "f9", "f8"]);
    expect(refused[0]).toMatchObject({ server: "noisy", repeats: 19, prompt: "More questions refused from noisy within this minute", reason: expect.stringMatching(/already has 8 questions waiting/) });
    expect(refused[3]).toMatchObject({ server: "noisy", reason: expect.stringMatching(/already has 8 questions waiting/) });
    expect(refused[3].repeats).toBeUndefined();
    expect(store.list({ outcome: "pending" }).items).toHaveLength(9);
    inbox.close();
    await Promise.all([...asked, other]);
  });

  it("takes 'by' from the rule hook", async () => {
    const { inbox, store, recorder } = setup({ answeredBy: () => "rule" });
    const answer = inbox.waitFor(form("r"), { source: { server: "s" } });
    inbox.answer("r", { ok: true, data: { user: "x" } });
    await answer;
    await recorder.flush();
    expect(store.list().items[0]).toMatchObject({ outcome: "accepted", by: "rule" });
  });

  it("records nothing while history is off", async () => {
    const { inbox, store, recorder } = setup();
    store.setSettings({ enabled: false });
    const answer = inbox.waitFor(form("off"), { source: { server: "s" } });
    inbox.answer("off", { ok: true, data: { user: "x" } });
    await answer;
    await recorder.flush();
    expect(store.list().items).toEqual([]);
  });

  it("a locked file (another connection's exclusive transaction) never blocks or breaks answering", async () => {
    const { inbox, store, recorder, file, lines } = setup({ retryDelaysMs: [5, 10] });
    const other = new Database(file);
    cleanups.push(() => other.close());
    other.exec("BEGIN EXCLUSIVE");
    other.prepare("INSERT INTO settings (key, value) VALUES ('holder', '1')").run();

    const started = performance.now();
    const locked = inbox.waitFor(form("locked"), { source: { server: "s" } });
    inbox.answer("locked", { ok: true, data: { user: "ada" } });
    expect(await locked).toMatchObject({ ok: true, data: { user: "ada" } });
    expect(performance.now() - started).toBeLessThan(50); // the answer did not wait on the retries
    await recorder.flush();
    expect(recorder.status()).toMatchObject({ state: "ok", dropped: 2, detail: expect.stringMatching(/locked/) });
    expect(lines.filter((l) => l.includes("could not record"))).toHaveLength(1); // one line, not one per record

    // Locked while it arrives, free by the time it is answered: the whole record goes in at the end.
    const late = inbox.waitFor(form("late"), { source: { server: "s" } });
    await recorder.flush();
    other.exec("COMMIT");
    inbox.answer("late", { ok: false, reason: "declined" });
    await late;
    await recorder.flush();
    expect(store.list().items.map((r) => [r.requestId, r.outcome])).toEqual([["late", "declined"]]);
    expect(lines.some((l) => l.includes("recording again"))).toBe(true);
    expect(recorder.status().detail).toBeUndefined();
  });

  it("a corrupt file is moved aside, logged, and history starts afresh", async () => {
    const { inbox, store, recorder, dir, lines } = setup({ garbage: true });
    expect(readdirSync(dir).filter((f) => f.startsWith("history.sqlite.corrupt-"))).toHaveLength(1);
    expect(lines.some((l) => l.includes("moved the corrupt database aside"))).toBe(true);
    const answer = inbox.waitFor(form("after"), { source: { server: "s" } });
    inbox.answer("after", { ok: true, data: { user: "x" } });
    await answer;
    await recorder.flush();
    expect(store.list().items.map((r) => r.requestId)).toEqual(["after"]);
  });

  it("marks questions a crashed companion left open, and sweeps old rows at start", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "history-int-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "history.sqlite");
    const first = new HistoryStore({ path: file });
    first.insert({ requestId: "open", kind: "input", prompt: "p", fields: [], outcome: "pending", receivedAt: Date.now() - 1000 });
    first.insert({ requestId: "old", kind: "input", prompt: "p", fields: [], outcome: "accepted", by: "person", receivedAt: Date.now() - 200 * 86_400_000, settledAt: Date.now() - 200 * 86_400_000 });
    first.close(); // no inbox.close(): as if the process died

    const store = new HistoryStore({ path: file });
    const inbox = new Inbox();
    const recorder = attachHistory(inbox, store);
    cleanups.push(() => (recorder.stop(), store.close()));
    expect(store.list().items.map((r) => [r.requestId, r.outcome, r.by])).toEqual([["open", "withdrawn", "companion"]]);
  });
});

describe("retention while running", () => {
  it("sweeps again on its timer, with the days the settings say", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "history-sweep-"));
    const store = new HistoryStore({ path: path.join(dir, "history.sqlite") });
    const recorder = attachHistory(new Inbox(), store, { sweepEveryMs: 50 });
    cleanups.push(() => (recorder.stop(), store.close(), rmSync(dir, { recursive: true, force: true })));
    store.setSettings({ days: 7 });
    const t = Date.now();
    const row = (id: string, ageDays: number) => ({ requestId: id, kind: "input", prompt: "p", fields: [], outcome: "accepted" as const, by: "person" as const, receivedAt: t - ageDays * 86_400_000, settledAt: t });
    store.insert(row("8-days", 8));
    store.insert(row("6-days", 6));
    await new Promise((r) => setTimeout(r, 200));
    expect(store.list().items.map((r) => r.requestId)).toEqual(["6-days"]);
  });
});

describe("openHistory (what core wires)", () => {
  it("keeps history across a restart of the companion", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "history-open-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "data", "history.sqlite");

    const first = new Inbox();
    const history = openHistory(first, { path: file });
    const answer = first.waitFor(form("before-restart"), { source: { server: "ci" } });
    first.answer("before-restart", { ok: true, data: { user: "ada", password: "pw" } });
    await answer;
    const left = first.waitFor(form("left-open"), { source: { server: "ci" } });
    first.close(); // the app quits: the open question is withdrawn and recorded
    await left;
    history.close();

    const second = new Inbox();
    const again = openHistory(second, { path: file });
    cleanups.push(() => again.close());
    const page = await again.handlers["history:list"]({});
    expect(page.items.map((r) => [r.requestId, r.outcome, r.by])).toEqual([
      ["left-open", "cancelled", "companion"],
      ["before-restart", "accepted", "person"],
    ]);
    expect(page.items[1].answer).toEqual({ user: "ada", password: MASK });
    expect(again.status()).toMatchObject({ state: "ok", path: file });
  });
});
