import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HEARTBEAT_MS, heartbeatMessage, progressRelay, waitedWords, type Progress } from "../../../../src/main/gateway/heartbeat";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

function relayed() {
  const sent: Progress[] = [];
  const relay = progressRelay((p) => sent.push(p));
  return { sent, relay };
}

describe("progress heartbeats", () => {
  it("beats at once when a question opens, then every 5 s, and stops when it ends", () => {
    const { sent, relay } = relayed();
    relay.question(true);
    expect(sent).toHaveLength(1);
    expect(sent[0].message).toBe("Waiting for you to answer the question in Toolnexus Companion.");
    vi.advanceTimersByTime(HEARTBEAT_MS - 1);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sent).toHaveLength(2);
    expect(sent[1].message).toBe("Waiting for you to answer the question in Toolnexus Companion (5 s so far).");
    vi.advanceTimersByTime(12 * HEARTBEAT_MS);
    expect(sent).toHaveLength(14);
    expect(sent[13].message).toBe("Waiting for you to answer the question in Toolnexus Companion (1 min 5 s so far).");
    relay.question(false);
    vi.advanceTimersByTime(10 * HEARTBEAT_MS);
    expect(sent).toHaveLength(14);
    for (const p of sent) expect(p.total).toBeUndefined();
  });

  it("counts open questions: beats go on until the last one ends", () => {
    const { sent, relay } = relayed();
    relay.question(true);
    relay.question(true);
    relay.question(false);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(sent).toHaveLength(2);
    relay.question(false);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(sent).toHaveLength(2);
  });

  it("never beats more often than every 5 s when questions come and go", () => {
    const { sent, relay } = relayed();
    for (let i = 0; i < 5; i++) {
      relay.question(true);
      vi.advanceTimersByTime(1000);
      relay.question(false);
    }
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    relay.question(true);
    expect(sent).toHaveLength(2);
  });

  it("keeps progress increasing across the server's values and heartbeats, and keeps the server's steps", () => {
    const { sent, relay } = relayed();
    relay.progress({ progress: 1, total: 3, message: "one" });
    relay.question(true);
    vi.advanceTimersByTime(3 * HEARTBEAT_MS);
    relay.question(false);
    // A server value heartbeats went past is raised just past them, with the rest as it was.
    relay.progress({ progress: 1, total: 3, message: "again" });
    relay.progress({ progress: 2, total: 3 });
    relay.progress({ progress: 3, total: 3 });
    const values = sent.map((p) => p.progress);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]);
    expect(sent[0]).toEqual({ progress: 1, total: 3, message: "one" });
    // Heartbeats move the value by millionths: the server's next step is still its own.
    expect(values[4]).toBeLessThan(1.0001);
    expect(sent[5]).toMatchObject({ total: 3, message: "again" });
    expect(sent[5].progress).toBeGreaterThan(values[4]);
    expect(sent[6]).toEqual({ progress: 2, total: 3 });
    expect(sent[7]).toEqual({ progress: 3, total: 3 });
  });

  it("passes the server's own sequence on as it is when no heartbeat went past it", () => {
    const { sent, relay } = relayed();
    relay.progress({ progress: 2 });
    relay.progress({ progress: 2 });
    relay.progress({ progress: 1 });
    expect(sent.map((p) => p.progress)).toEqual([2, 2, 1]);
  });

  it("starts just past 0 when the server sent nothing", () => {
    const { sent, relay } = relayed();
    relay.question(true);
    expect(sent[0].progress).toBeGreaterThan(0);
    expect(sent[0].progress).toBeLessThan(0.001);
    relay.question(false);
    relay.progress({ progress: 0.5, total: 1 });
    expect(sent[1]).toEqual({ progress: 0.5, total: 1 });
  });

  it("sends nothing once stopped", () => {
    const { sent, relay } = relayed();
    relay.question(true);
    relay.stop();
    vi.advanceTimersByTime(10 * HEARTBEAT_MS);
    relay.progress({ progress: 5 });
    relay.question(true);
    expect(sent).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("says how long in words", () => {
    expect(waitedWords(0)).toBe("0 s");
    expect(waitedWords(59_400)).toBe("59 s");
    expect(waitedWords(60_000)).toBe("1 min");
    expect(waitedWords(125_000)).toBe("2 min 5 s");
    expect(heartbeatMessage(300)).toBe("Waiting for you to answer the question in Toolnexus Companion.");
  });
});
