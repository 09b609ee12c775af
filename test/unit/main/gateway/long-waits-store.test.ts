import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { WaitStore, type ParkInput } from "../../../../src/main/gateway/long-waits-store";
import { waitForParked } from "../../../../src/main/gateway/long-waits-call";
import { LONG_WAIT_KEEP_MS } from "../../../../src/shared/limits";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });

/** A parked call the test settles by hand. */
function running(owner = "token\nagent") {
  let settle!: (result: CallToolResult) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<CallToolResult>((resolve, reject) => ((settle = resolve), (fail = reject)));
  const abort = vi.fn();
  const input: ParkInput = { owner, tool: "srv_ask", structured: false, running: promise, failed: (e) => text(`failed: ${(e as Error).message}`), abort, open: 1 };
  return { input, settle, fail, abort };
}

describe("the store of parked calls", () => {
  it("hands a result over once, to its owner only, under an unguessable id", async () => {
    const store = new WaitStore();
    const a = running();
    const entry = store.park(a.input)!;
    expect(entry.id).toMatch(/^tnw_[A-Za-z0-9_-]{24}$/);
    expect(store.park(running().input)!.id).not.toBe(entry.id);
    expect(store.find(entry.id, "token\nsomeone-else")).toBeUndefined();
    expect(store.find(entry.id, "agent:x\nagent")).toBeUndefined();
    expect(store.claim(entry)).toBeUndefined(); // still running
    a.settle(text("the answer"));
    await entry.result;
    expect(store.claim(entry)).toEqual(text("the answer"));
    expect(store.claim(entry)).toBeUndefined();
    expect(store.find(entry.id, "token\nagent")).toBeUndefined();
  });

  it("turns a failed call into its failure result", async () => {
    const store = new WaitStore();
    const a = running();
    const entry = store.park(a.input)!;
    a.fail(new Error("server went away"));
    await entry.result;
    expect(store.claim(entry)).toEqual(text("failed: server went away"));
  });

  it("drops a result nobody claimed an hour after it came", async () => {
    const store = new WaitStore();
    const a = running();
    const entry = store.park(a.input)!;
    // Running calls are not timed out here (the companion bounds waiting for the person itself).
    vi.advanceTimersByTime(2 * LONG_WAIT_KEEP_MS);
    expect(store.find(entry.id, "token\nagent")).toBe(entry);
    a.settle(text("late"));
    await entry.result;
    vi.advanceTimersByTime(LONG_WAIT_KEEP_MS - 1);
    expect(store.find(entry.id, "token\nagent")).toBe(entry);
    vi.advanceTimersByTime(1);
    expect(store.find(entry.id, "token\nagent")).toBeUndefined();
    expect(store.size()).toBe(0);
  });

  it("is bounded per agent and in all: the oldest unclaimed result makes room, running calls never do", async () => {
    const store = new WaitStore({ perAgent: 2, total: 3 });
    const one = running("a");
    const two = running("a");
    const first = store.park(one.input)!;
    store.park(two.input)!;
    expect(store.park(running("a").input)).toBeUndefined(); // both still running
    one.settle(text("1"));
    await first.result;
    const third = store.park(running("a").input);
    expect(third).toBeDefined();
    expect(store.find(first.id, "a")).toBeUndefined();
    store.park(running("b").input);
    expect(store.size()).toBe(3);
    expect(store.park(running("c").input)).toBeUndefined(); // full, nothing has come
  });

  it("ends running calls and forgets everything when the gateway closes", async () => {
    const store = new WaitStore();
    const a = running();
    const b = running();
    store.park(a.input);
    const done = store.park(b.input)!;
    b.settle(text("done"));
    await done.result;
    store.close();
    expect(a.abort).toHaveBeenCalledTimes(1);
    expect(b.abort).not.toHaveBeenCalled();
    expect(store.size()).toBe(0);
    expect(store.park(running().input)).toBeUndefined();
  });
});

describe("toolnexus_wait on a parked call", () => {
  it("waits up to the deadline, says 'not yet' again, then returns the result once", async () => {
    const store = new WaitStore();
    const a = running();
    const entry = store.park(a.input)!;
    const first = waitForParked(store, { owner: "token\nagent", id: entry.id, deadlineMs: 50_000 });
    await vi.advanceTimersByTimeAsync(50_000);
    const notYet = await first;
    expect((notYet.content[0] as { text: string }).text).toMatch(/^The person has not answered yet: srv_ask is waiting/);
    expect((notYet.content[0] as { text: string }).text).toContain(`{"call": "${entry.id}"}`);
    const second = waitForParked(store, { owner: "token\nagent", id: entry.id, deadlineMs: 50_000 });
    await vi.advanceTimersByTimeAsync(10_000);
    a.settle(text("answered"));
    expect(await second).toEqual(text("answered"));
    const third = await waitForParked(store, { owner: "token\nagent", id: entry.id, deadlineMs: 50_000 });
    expect(third.isError).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("tells a waiting call's heartbeats about the parked call's question", async () => {
    const store = new WaitStore();
    const a = running();
    const entry = store.park(a.input)!;
    const seen: boolean[] = [];
    const relay = { question: (open: boolean) => seen.push(open), progress: () => {}, stop: vi.fn() };
    const waiting = waitForParked(store, { owner: "token\nagent", id: entry.id, deadlineMs: 50_000, relay });
    expect(seen).toEqual([true]); // the question open at parking
    store.question(entry, false);
    a.settle(text("x"));
    await waiting;
    expect(seen).toEqual([true, false]);
    expect(relay.stop).toHaveBeenCalled();
    expect(entry.watchers.size).toBe(0);
  });

  it("stops waiting when the agent cancels it; the parked call goes on", async () => {
    const store = new WaitStore();
    const a = running();
    const entry = store.park(a.input)!;
    const cancel = new AbortController();
    const waiting = waitForParked(store, { owner: "token\nagent", id: entry.id, deadlineMs: 50_000, signal: cancel.signal });
    cancel.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
    expect(store.find(entry.id, "token\nagent")).toBe(entry);
    expect(a.abort).not.toHaveBeenCalled();
  });
});
