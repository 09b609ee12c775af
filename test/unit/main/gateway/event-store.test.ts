// The gateway's per-session event store (SSE resumability): replay is of the named stream only
// and only after the given event, an unknown id is refused, and the store stays bounded.
import { describe, expect, it } from "vitest";
import { EventBudget, SessionEvents } from "../../../../src/main/gateway/event-store";

const msg = (n: number, pad = "") => ({ jsonrpc: "2.0" as const, method: "notifications/message", params: { n, pad } });

async function replay(store: SessionEvents, after: string) {
  const sent: Array<[string, unknown]> = [];
  const stream = await store.replayEventsAfter(after, { send: async (id, message) => void sent.push([id, message]) });
  return { stream, sent };
}

describe("SessionEvents", () => {
  it("replays the events of the named stream after the given one, in order", async () => {
    const store = new SessionEvents();
    const a1 = await store.storeEvent("a", msg(1));
    await store.storeEvent("b", msg(2));
    const a3 = await store.storeEvent("a", msg(3));
    const a4 = await store.storeEvent("a", msg(4));
    const { stream, sent } = await replay(store, a1);
    expect(stream).toBe("a");
    expect(sent).toEqual([[a3, msg(3)], [a4, msg(4)]]);
    expect(await store.getStreamIdForEventId(a3)).toBe("a");
  });

  it("refuses an id it never gave", async () => {
    await expect(replay(new SessionEvents(), "nonsense")).rejects.toThrow(/Last-Event-ID/);
  });

  it("keeps at most 256 events and 8 MiB, dropping the oldest", async () => {
    const store = new SessionEvents();
    const first = await store.storeEvent("s", msg(0));
    for (let i = 1; i <= 300; i++) await store.storeEvent("s", msg(i));
    expect((await replay(store, first)).sent).toHaveLength(256);
    const big = new SessionEvents();
    const start = await big.storeEvent("s", msg(0));
    for (let i = 1; i <= 5; i++) await big.storeEvent("s", msg(i, "x".repeat(3 * 1024 * 1024)));
    const { sent } = await replay(big, start);
    expect(sent.map(([, m]) => (m as ReturnType<typeof msg>).params.n)).toEqual([4, 5]);
  });
});

describe("EventBudget", () => {
  it("bounds the bytes of every session together: the storing session sheds first, then the largest other", async () => {
    const budget = new EventBudget(1_000_000);
    const stores = Array.from({ length: 10 }, () => new SessionEvents(budget));
    // Each store alone stays under its own 8 MiB; together they would hold ~5 MB.
    for (let i = 0; i < 50; i++) for (const store of stores) await store.storeEvent("s", msg(i, "x".repeat(10_000)));
    expect(budget.bytes).toBeLessThanOrEqual(1_000_000);
    expect(stores.reduce((sum, s) => sum + s.size(), 0)).toBe(budget.bytes);
    // Every session keeps its newest event for one reconnect.
    for (const store of stores) expect(store.size()).toBeGreaterThan(0);
  });

  it("gives a session's bytes back when it ends", async () => {
    const budget = new EventBudget(1_000_000);
    const store = new SessionEvents(budget);
    await store.storeEvent("s", msg(1, "y".repeat(5000)));
    expect(budget.bytes).toBeGreaterThan(5000);
    store.dispose();
    expect(budget.bytes).toBe(0);
    expect(budget.stores.size).toBe(0);
  });
});
