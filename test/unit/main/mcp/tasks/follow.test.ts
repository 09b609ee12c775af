// The follower on a scripted wire (each tasks/get answers the next snapshot): the poll bounds,
// inputRequests asked once per key across polls, and how a task's end reaches the call and the ledger.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { followTask, newTaskRecord, pollDelay, POLL_DEFAULT_MS, POLL_MAX_MS, POLL_MIN_MS, POLL_OUTAGE_MS, taskText, type FollowHooks } from "../../../../../src/main/mcp/tasks/follow";
import { memoryLedger } from "../../../../../src/main/mcp/tasks/ledger";
import type { TaskInputRequest, TaskSnapshot, TaskWire } from "../../../../../src/main/mcp/tasks/wire";
import type { TaskRecord } from "../../../../../src/shared/tasks";
import { ToolCallError } from "../../../../../src/main/mcp/call-paths/call-path";

const done: CallToolResult = { content: [{ type: "text", text: "all done\nsecond line" }] };

/** A wire whose tasks/get answers `snapshots` in turn (the last one again once they run out). */
function scriptedWire(snapshots: (TaskSnapshot | Error)[], generation: TaskWire["generation"] = "2026-07-28") {
  const gets: number[] = [];
  const updates: Record<string, Record<string, unknown>>[] = [];
  const cancels: string[] = [];
  const wire: TaskWire = {
    generation,
    callTool: async () => ({ kind: "result", result: done }),
    get: async () => {
      gets.push(Date.now());
      const next = snapshots.length > 1 ? snapshots.shift()! : snapshots[0];
      if (next instanceof Error) throw next;
      return next;
    },
    cancel: async (taskId) => void cancels.push(taskId),
    ...(generation === "2026-07-28"
      ? { update: async (_taskId: string, responses: Record<string, Record<string, unknown>>) => void updates.push(responses) }
      : { result: async () => done }),
  };
  return { wire, gets, updates, cancels };
}

function hooksWith(ask: FollowHooks["ask"] = async () => ({ action: "accept", content: {} })) {
  const ledger = memoryLedger();
  const told: TaskRecord[] = [];
  const hooks: FollowHooks = {
    ledger,
    // The ledger is written first: what is told is already what the ledger says.
    emit: (record) => {
      expect(ledger.get(record.id)).toEqual(record);
      told.push(record);
    },
    ask,
  };
  return { ledger, told, hooks };
}

function started(ledger: ReturnType<typeof memoryLedger>, first: TaskSnapshot): TaskRecord {
  const record = newTaskRecord({ server: "s", tool: "t", agent: "a", generation: "2026-07-28" }, first);
  ledger.started(record);
  return record;
}

const working = (extra: Partial<TaskSnapshot> = {}): TaskSnapshot => ({ taskId: "srv-1", status: "working", ...extra });

describe("pollDelay", () => {
  it("takes the server's suggestion within 250 ms..15 s, 1 s when it suggests none", () => {
    expect([POLL_MIN_MS, POLL_MAX_MS, POLL_DEFAULT_MS]).toEqual([250, 15_000, 1_000]);
    expect(pollDelay(undefined)).toBe(1_000);
    expect(pollDelay(Number.NaN)).toBe(1_000);
    expect(pollDelay(600)).toBe(600);
    expect(pollDelay(0)).toBe(250);
    expect(pollDelay(-5)).toBe(250);
    expect(pollDelay(3_600_000)).toBe(15_000);
  });

  it("stays under the caller's bound (its idle time, halved), but never under the minimum", () => {
    expect(pollDelay(10_000, 4_000)).toBe(4_000);
    expect(pollDelay(undefined, 600)).toBe(600);
    expect(pollDelay(10_000, 100)).toBe(250);
  });
});

describe("followTask", () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it("polls no faster than 250 ms when the server asks for 10 ms, and no slower than 15 s when it asks for an hour", async () => {
    const { wire, gets } = scriptedWire([working({ pollIntervalMs: 10 }), working({ pollIntervalMs: 10 }), working({ pollIntervalMs: 3_600_000 }), working({ pollIntervalMs: 3_600_000 }), { taskId: "srv-1", status: "completed", result: done as never }]);
    const { ledger, hooks } = hooksWith();
    const first = working({ pollIntervalMs: 10 });
    const followed = followTask(wire, first, started(ledger, first), hooks);
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(followed.done).resolves.toEqual(done);
    const gaps = gets.slice(1).map((at, i) => at - gets[i]);
    expect(gets[0] - 1_000_000).toBe(250);
    expect(gaps).toEqual([250, 250, 15_000, 15_000]);
  });

  it("asks each inputRequests key once, however many polls show it, and answers it with tasks/update", async () => {
    const region: TaskInputRequest = { method: "elicitation/create", params: { message: "Region?", requestedSchema: { type: "object", properties: {} } } };
    const size: TaskInputRequest = { method: "elicitation/create", params: { message: "Size?", requestedSchema: { type: "object", properties: {} } } };
    const { wire, updates } = scriptedWire([
      { taskId: "srv-1", status: "input_required", inputRequests: { region } },
      { taskId: "srv-1", status: "input_required", inputRequests: { region, size } },
      { taskId: "srv-1", status: "input_required", inputRequests: { size } },
      { taskId: "srv-1", status: "completed", result: done as never },
    ]);
    const asked: string[] = [];
    const { ledger, told, hooks } = hooksWith(async (request) => {
      asked.push(String(request.params.message));
      return { action: "accept", content: { value: String(request.params.message) } };
    });
    const first: TaskSnapshot = { taskId: "srv-1", status: "input_required", inputRequests: { region } };
    const followed = followTask(wire, first, started(ledger, first), hooks);
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(followed.done).resolves.toEqual(done);
    expect(asked).toEqual(["Region?", "Size?"]);
    expect(updates).toEqual([{ region: { action: "accept", content: { value: "Region?" } } }, { size: { action: "accept", content: { value: "Size?" } } }]);
    expect(told.at(-1)).toMatchObject({ state: "completed", outcome: "all done" });
  });

  it("writes only news to the ledger: a status message that changes, not every poll", async () => {
    const { wire } = scriptedWire([working({ statusMessage: "one" }), working({ statusMessage: "one" }), working({ statusMessage: "two\u001b[2J" }), { taskId: "srv-1", status: "completed", result: done as never }]);
    const { ledger, told, hooks } = hooksWith();
    const first = working({ statusMessage: "one" });
    const followed = followTask(wire, first, started(ledger, first), hooks);
    await vi.advanceTimersByTimeAsync(10_000);
    await followed.done;
    expect(told.map((r) => r.statusMessage)).toEqual(["two", "two"]);
    expect(told.map((r) => r.state)).toEqual(["working", "completed"]);
  });

  it("a failed task fails the call with the server's code; a task the server no longer knows is gone", async () => {
    const failing = scriptedWire([{ taskId: "srv-1", status: "failed", error: { code: -32000, message: "disk full" } }]);
    const a = hooksWith();
    const first = working();
    const failed = followTask(failing.wire, first, started(a.ledger, first), a.hooks);
    failed.done.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(2_000);
    const error = await failed.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error).toMatchObject({ code: -32000, message: "s: t failed: disk full" });
    expect(a.told.at(-1)).toMatchObject({ state: "failed", outcome: "failed: disk full" });

    const unknown = scriptedWire([Object.assign(new Error("Task not found"), { code: -32602 })]);
    const b = hooksWith();
    const lost = followTask(unknown.wire, first, started(b.ledger, first), b.hooks);
    lost.done.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(lost.done).rejects.toThrow("s: t's task is gone");
    expect(b.told.at(-1)).toMatchObject({ state: "gone" });
  });

  it("2026-07-28: a task created already finished is asked for its result (a created task never carries it)", async () => {
    const { wire, gets } = scriptedWire([{ taskId: "srv-1", status: "completed", result: done as never }]);
    const { ledger, told, hooks } = hooksWith();
    const first: TaskSnapshot = { taskId: "srv-1", status: "completed" };
    const followed = followTask(wire, first, started(ledger, first), hooks);
    await expect(followed.done).resolves.toEqual(done);
    expect(gets).toHaveLength(1);
    expect(told.at(-1)).toMatchObject({ state: "completed", outcome: "all done" });
  });

  it("a server that cannot be reached is asked again (a restart), for at most POLL_OUTAGE_MS; an answered error is not", async () => {
    const unreachable = () => new TypeError("fetch failed");
    const back = scriptedWire([unreachable(), unreachable(), unreachable(), { taskId: "srv-1", status: "completed", result: done as never }]);
    const a = hooksWith();
    const first = working({ pollIntervalMs: 500 });
    const resumed = followTask(back.wire, first, started(a.ledger, first), a.hooks);
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(resumed.done).resolves.toEqual(done);
    expect(back.gets).toHaveLength(4);

    const down = scriptedWire([unreachable()]);
    const b = hooksWith();
    const lost = followTask(down.wire, first, started(b.ledger, first), b.hooks);
    lost.done.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(POLL_OUTAGE_MS + 2_000);
    await expect(lost.done).rejects.toThrow("t was left running as a task: fetch failed");
    // Asked every 500 ms for the 30 s, then given up (the record stays live, to be resumed).
    expect(down.gets.length).toBeGreaterThanOrEqual(POLL_OUTAGE_MS / 500);
    expect(down.gets.length).toBeLessThanOrEqual(POLL_OUTAGE_MS / 500 + 2);
    expect(b.ledger.get(lost.record.id)?.state).toBe("working");

    const refused = scriptedWire([new ToolCallError("s: the answer to tasks/get was refused: it is about another task")]);
    const c = hooksWith();
    const once = followTask(refused.wire, first, started(c.ledger, first), c.hooks);
    once.done.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(once.done).rejects.toThrow("it is about another task");
    expect(refused.gets).toHaveLength(1);
  });

  it("the caller's abort tells the server (tasks/cancel) and ends the record cancelled; the connection ending leaves it live", async () => {
    const cancelling = scriptedWire([working()]);
    const a = hooksWith();
    const caller = new AbortController();
    const first = working();
    const followed = followTask(cancelling.wire, first, started(a.ledger, first), a.hooks, { signal: caller.signal });
    followed.done.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(1_500);
    caller.abort(new Error("agent left"));
    await expect(followed.done).rejects.toThrow("agent left");
    expect(cancelling.cancels).toEqual(["srv-1"]);
    expect(a.ledger.get(followed.record.id)).toMatchObject({ state: "cancelled" });

    const staying = scriptedWire([working()]);
    const b = hooksWith();
    const lifetime = new AbortController();
    const kept = followTask(staying.wire, first, started(b.ledger, first), b.hooks, { lifetime: lifetime.signal });
    kept.done.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(1_500);
    lifetime.abort(new Error("the connection closed"));
    await expect(kept.done).rejects.toThrow("t was left running as a task: the connection closed");
    expect(staying.cancels).toEqual([]);
    expect(b.ledger.get(kept.record.id)).toMatchObject({ state: "working" });
    expect(b.ledger.get(kept.record.id)?.endedAt).toBeUndefined();
  });

  it("2025-11-25: input_required opens tasks/result once, and its answer ends the task", async () => {
    const { wire, gets } = scriptedWire([{ taskId: "srv-1", status: "input_required" }], "2025-11-25");
    let results = 0;
    wire.result = async () => {
      results++;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      return done;
    };
    const { ledger, hooks } = hooksWith();
    const first = working();
    const followed = followTask(wire, first, started(ledger, first), hooks);
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(followed.done).resolves.toEqual(done);
    expect(results).toBe(1);
    // Polled while tasks/result was open (liveness), and not after it answered.
    expect(gets.length).toBeGreaterThanOrEqual(2);
    expect(gets.at(-1)! - 1_000_000).toBeLessThanOrEqual(4_000);
  });
});

describe("taskText", () => {
  it("keeps one line without controls, bounded", () => {
    expect(taskText("a\nb\u001b]0;title\u0007c")).toBe("a bc");
    expect(taskText("x".repeat(900))).toHaveLength(500);
  });
});
