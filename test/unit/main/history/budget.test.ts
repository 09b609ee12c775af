// History keeps its budgets: one asker past its share loses its oldest records first, and the
// whole file past its budget loses everyone's oldest; pending questions stay; batches commit once.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HistoryStore, type NewQuestion } from "../../../../src/main/history/store";

function question(i: number, source: { server?: string; agent?: string }, outcome: NewQuestion["outcome"] = "refused"): NewQuestion {
  return { requestId: `r${i}`, kind: "input", prompt: `${i} `.padEnd(10_000, "x"), fields: [], outcome, receivedAt: 1_000_000 + i, ...source, ...(outcome === "pending" ? {} : { by: "companion" as const, settledAt: 1_000_000 + i }) };
}

function open(options: { budgetBytes?: number; sourceBudgetBytes?: number } = {}) {
  return new HistoryStore({ path: join(mkdtempSync(join(tmpdir(), "tnc-budget-")), "h.db"), ...options });
}

describe("history budgets", () => {
  it("an asker past its share loses its own oldest records, not anyone else's", () => {
    const store = open({ sourceBudgetBytes: 200 * 1024 });
    try {
      store.batch(() => {
        for (let i = 0; i < 10; i++) store.insert(question(i, { agent: "calm" }));
        for (let i = 10; i < 110; i++) store.insert(question(i, { agent: "noisy" }));
      });
      const removed = store.enforceBudget([{ agent: "noisy" }]);
      expect(removed).toBeGreaterThan(80);
      const noisy = store.list({ agent: "noisy", limit: 1000 }).items;
      expect(noisy.length * 10_000).toBeLessThanOrEqual(200 * 1024);
      // The newest stay.
      expect(noisy[0].requestId).toBe("r109");
      expect(store.list({ agent: "calm", limit: 1000 }).items).toHaveLength(10);
    } finally {
      store.close();
    }
  });

  it("past the total budget the oldest go first, pending ones stay, and the size is reported", () => {
    const budget = 1024 * 1024;
    const store = open({ budgetBytes: budget });
    try {
      store.insert(question(0, { server: "s" }, "pending"));
      store.batch(() => {
        for (let i = 1; i < 400; i++) store.insert(question(i, { agent: `a${i}` }));
      });
      expect(store.sizeBytes()).toBeGreaterThan(budget);
      store.enforceBudget();
      expect(store.sizeBytes()).toBeLessThanOrEqual(budget);
      expect(store.budgetBytes).toBe(budget);
      const kept = store.list({ limit: 1000 }).items;
      expect(kept.some((r) => r.requestId === "r0" && r.outcome === "pending")).toBe(true);
      expect(kept[0].requestId).toBe("r399");
      expect(kept.some((r) => r.requestId === "r1")).toBe(false);
    } finally {
      store.close();
    }
  });
});
