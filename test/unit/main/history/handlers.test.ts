import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createHistoryHandlers, historyOffHandlers } from "../../../../src/main/history/handlers";
import { HistoryStore } from "../../../../src/main/history/store";
import { SCHEMA_VERSION } from "../../../../src/main/history/migrations";
import { errorEnvelope } from "../../../../src/main/rpc/envelope";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});
function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), "history-handlers-"));
  const file = path.join(dir, "history.sqlite");
  const store = new HistoryStore({ path: file });
  cleanups.push(() => (store.close(), rmSync(dir, { recursive: true, force: true })));
  const t = Date.now();
  store.insert({ requestId: "a", kind: "input", prompt: "Deploy now?", server: "ci", fields: [], outcome: "accepted", by: "person", receivedAt: t - 2000, settledAt: t - 1000 });
  store.insert({ requestId: "b", kind: "authorization", prompt: "Sign in", server: "jira", fields: [], outcome: "declined", by: "person", receivedAt: t - 1000, settledAt: t });
  return { store, file, handlers: createHistoryHandlers({ store }) };
}
const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return errorEnvelope(error);
  }
  throw new Error("expected a refusal");
};

describe("history handlers", () => {
  it("lists with the page's filters", async () => {
    const { handlers } = setup();
    expect((await handlers["history:list"]({})).items.map((r) => r.requestId)).toEqual(["b", "a"]);
    expect((await handlers["history:list"](undefined)).items).toHaveLength(2);
    expect((await handlers["history:list"]({ query: "deploy", server: "ci", outcome: "accepted", since: 0, limit: 10, offset: 0 })).items.map((r) => r.requestId)).toEqual(["a"]);
    expect((await handlers["history:list"]({ kind: "authorization", query: "" })).items.map((r) => r.requestId)).toEqual(["b"]);
  });

  it("refuses arguments that are not the contract's", async () => {
    const { handlers } = setup();
    for (const bad of [[], "x", { outcome: "lost" }, { limit: 0 }, { limit: 1.5 }, { since: -1 }, { query: 3 }, { query: "q".repeat(501) }]) {
      expect(await refusal(handlers["history:list"](bad)), JSON.stringify(bad)).toMatchObject({ ok: false, error: { code: "invalid-argument" } });
    }
    expect(await refusal(handlers["history:clear"]({ all: true }))).toMatchObject({ error: { code: "invalid-argument" } });
    expect(await refusal(handlers["history:settings"]({ days: 0 }))).toMatchObject({ error: { code: "invalid-argument" } });
    expect(await refusal(handlers["history:settings"]({ enabled: "yes" }))).toMatchObject({ error: { code: "invalid-argument" } });
  });

  it("reads and changes the settings, with the store's status", async () => {
    const { handlers } = setup();
    expect(await handlers["history:settings"]({})).toMatchObject({ enabled: true, days: 90, status: { state: "ok", dropped: 0, search: "fts5" } });
    expect(await handlers["history:settings"]({ enabled: false, days: 30 })).toMatchObject({ enabled: false, days: 30 });
  });

  it("clears", async () => {
    const { handlers } = setup();
    expect(await handlers["history:clear"](undefined)).toEqual({ removed: 2 });
    expect((await handlers["history:list"]({})).items).toEqual([]);
  });

  it("says history is unavailable instead of failing obscurely", async () => {
    const { store, file, handlers } = setup();
    store.close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const other = new HistoryStore({ path: file });
    cleanups.push(() => other.close());
    const fresh = createHistoryHandlers({ store: other });
    expect(await refusal(fresh["history:list"]({}))).toMatchObject({ error: { code: "history-unavailable", message: expect.stringMatching(/newer companion/) } });
    expect(await fresh["history:settings"]({})).toMatchObject({ enabled: true, status: { state: "unavailable" } });
    expect(await refusal(handlers["history:list"]({}))).toMatchObject({ error: { code: "history-unavailable" } }); // closed store
  });

  it("refuses plainly in a session that keeps no history", async () => {
    const off = historyOffHandlers();
    for (const channel of ["history:list", "history:clear", "history:settings"] as const) {
      expect(await refusal(off[channel]({}))).toMatchObject({ ok: false, error: { code: "history-unavailable", message: "This companion session keeps no history." } });
    }
  });
});
