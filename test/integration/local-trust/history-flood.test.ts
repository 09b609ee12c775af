// An agent that posts already-expired questions in a loop (each refused before it is ever shown)
// must not grow History with every one: a few are kept whole per asker per minute, the rest are
// counted in one row, also when the agent gives itself a new X-Agent-Name each time.
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../../src/main/app/core";
import { startCompanionServer } from "../../../src/main/app/companion-server";
import { browserPlatform } from "../../../src/main/app/serve";
import { HistoryStore } from "../../../src/main/history/store";
import { HISTORY_REFUSED_ROWS_PER_MINUTE, HISTORY_REFUSED_ROWS_PER_SOURCE_PER_MINUTE } from "../../../src/shared/limits";

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

function fileBytes(path: string): number {
  let total = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      total += statSync(path + suffix).size;
    } catch {
      // not there
    }
  }
  return total;
}

describe("a flood of expired /v1/requests", { timeout: 60_000 }, () => {
  it("is counted, not recorded one by one: History grows by a few rows, the count is kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tnc-flood-"));
    const historyPath = join(dir, "history.db");
    core = await createCore({ config: { mcpServers: {} }, platform: browserPlatform, historyPath });
    const server = await startCompanionServer(core, { port: 0, staticDir: dir });
    const before = fileBytes(historyPath);
    const prompt = "p".repeat(20_000);
    const expiresAt = new Date(Date.now() - 60_000).toISOString();
    const started = Date.now();
    let posted = 0;
    while (Date.now() - started < 3000) {
      // Half from one asker, half from a new name each time.
      const agent = posted % 2 === 0 ? "deploy-bot" : `bot-${posted}`;
      const res = await fetch(`${server.url}/v1/requests`, {
        method: "POST",
        headers: { authorization: `Bearer ${core.token()}`, "content-type": "application/json", "x-agent-name": agent },
        body: JSON.stringify({ id: `q-${posted}`, kind: "input", prompt, expiresAt }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ok: false, reason: "expired" });
      posted++;
    }
    const settings = core.settings();
    await core.close();
    core = undefined;
    const grew = fileBytes(historyPath) - before;
    const store = new HistoryStore({ path: historyPath });
    try {
      const rows = store.list({ outcome: "refused", limit: 1000 }).items;
      const counted = rows.reduce((sum, r) => sum + (r.repeats ?? 1), 0);
      const minutes = Math.floor((Date.now()) / 60_000) - Math.floor(started / 60_000) + 1;
      console.log(`history-flood: ${JSON.stringify({ posted, rows: rows.length, counted, grewBytes: grew, settingsHistory: settings.history })}`);
      expect(posted).toBeGreaterThan(50);
      // Every refusal is accounted for: in its own row or in a count row.
      expect(counted).toBe(posted);
      expect(rows.length).toBeLessThanOrEqual((HISTORY_REFUSED_ROWS_PER_MINUTE + 1) * minutes);
      expect(rows.some((r) => r.agent === "deploy-bot" && (r.repeats ?? 0) > 1)).toBe(true);
      expect(rows.some((r) => r.prompt === "More questions refused from several askers within this minute" && (r.repeats ?? 0) > 1)).toBe(true);
      // 20 KB prompts: the rows kept take about a row's worth each, far from posted × 20 KB.
      expect(grew).toBeLessThan((HISTORY_REFUSED_ROWS_PER_MINUTE + 1) * minutes * 64 * 1024);
      expect(settings.history).toMatchObject({ budgetBytes: 64 * 1024 * 1024 });
      expect(settings.history!.bytes).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });

  it("questions an agent posts and withdraws at once (never seen) are counted the same way", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tnc-flood-"));
    const historyPath = join(dir, "history.db");
    core = await createCore({ config: { mcpServers: {} }, platform: browserPlatform, historyPath });
    const server = await startCompanionServer(core, { port: 0, staticDir: dir });
    const prompt = "w".repeat(20_000);
    const started = Date.now();
    let posted = 0;
    while (Date.now() - started < 2000) {
      const id = `w-${posted++}`;
      const added = new Promise<void>((resolve) => {
        const off = core!.internals.inbox.on((event) => {
          if (event.type === "added" && event.entry.request.id === id) {
            off();
            resolve();
          }
        });
      });
      const abort = new AbortController();
      const res = fetch(`${server.url}/v1/requests`, {
        method: "POST",
        signal: abort.signal,
        headers: { authorization: `Bearer ${core.token()}`, "content-type": "application/json", "x-agent-name": "deploy-bot" },
        body: JSON.stringify({ id, kind: "input", prompt }),
      }).catch(() => undefined);
      await added;
      abort.abort();
      await res;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    await core.close();
    core = undefined;
    const store = new HistoryStore({ path: historyPath });
    try {
      const rows = store.list({ agent: "deploy-bot", limit: 1000 }).items;
      const counted = rows.reduce((sum, r) => sum + (r.repeats ?? 1), 0);
      console.log(`history-flood (withdrawn): ${JSON.stringify({ posted, rows: rows.length, counted })}`);
      expect(posted).toBeGreaterThan(20);
      expect(counted).toBe(posted);
      expect(rows.length).toBeLessThanOrEqual(2 * (HISTORY_REFUSED_ROWS_PER_SOURCE_PER_MINUTE + 1));
      expect(rows.some((r) => r.outcome === "withdrawn" && (r.repeats ?? 0) > 1 && /withdrawn before they were answered/.test(r.prompt))).toBe(true);
    } finally {
      store.close();
    }
  });
});
