import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { WaitStore } from "../../../../src/main/gateway/long-waits-store";
import { longWaitCall, type LongWaits } from "../../../../src/main/gateway/long-waits-call";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

function setup(store = new WaitStore()) {
  const log = vi.fn();
  const waits: LongWaits = { store, deadline: () => 50_000, log };
  let settle!: (r: CallToolResult) => void;
  let fail!: (e: Error) => void;
  const running = new Promise<CallToolResult>((resolve, reject) => ((settle = resolve), (fail = reject)));
  const detach = vi.fn();
  const call = longWaitCall(waits, { owner: "o", tool: "srv_ask", structured: false, deadlineMs: 50_000 });
  const outcome = call.race(running, detach, () => text("failed"), vi.fn());
  return { store, log, call, outcome, settle, fail, detach };
}

describe("a call under a long wait", () => {
  it("returns its own result before the deadline, untouched", async () => {
    const { outcome, settle, detach, call } = setup();
    call.question(true);
    await vi.advanceTimersByTimeAsync(49_000);
    settle(text("answered"));
    expect(await outcome).toEqual(text("answered"));
    expect(detach).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("is parked at the deadline while a question is open: 'not answered yet' with its id, and the store holds the call", async () => {
    const { outcome, settle, detach, call, store } = setup();
    call.question(true);
    await vi.advanceTimersByTimeAsync(50_000);
    const notYet = await outcome;
    expect(detach).toHaveBeenCalledTimes(1);
    expect(textOf(notYet)).toMatch(/^The person has not answered yet: srv_ask is waiting for them to answer a question in Toolnexus Companion \(50 s so far\)\./);
    const id = /"call": "(tnw_[^"]+)"/.exec(textOf(notYet))![1];
    const parked = store.find(id, "o")!;
    expect(parked.open).toBe(1);
    // Its questions keep being counted after parking.
    call.question(false);
    expect(parked.open).toBe(0);
    settle(text("later"));
    await parked.result;
    expect(store.claim(parked)).toEqual(text("later"));
  });

  it("is not parked at the deadline while nothing waits on the person, but at once when a question opens later", async () => {
    const { outcome, detach, call } = setup();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(detach).not.toHaveBeenCalled();
    call.question(true);
    expect(textOf(await outcome)).toMatch(/has not answered yet/);
    expect(detach).toHaveBeenCalledTimes(1);
  });

  it("keeps waiting as any call when the store is full, and says so once", async () => {
    const store = new WaitStore({ perAgent: 0 });
    const { outcome, settle, detach, call, log } = setup(store);
    call.question(true);
    await vi.advanceTimersByTimeAsync(50_000);
    call.question(false);
    call.question(true);
    expect(detach).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledTimes(1);
    settle(text("in the end"));
    expect(await outcome).toEqual(text("in the end"));
  });

  it("passes an aborted call's rejection on before the deadline", async () => {
    const { outcome, fail } = setup();
    fail(new Error("the agent cancelled the call"));
    await expect(outcome).rejects.toThrow("the agent cancelled the call");
  });
});
