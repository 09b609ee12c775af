// The restart policy alone: waits that double up to a cap, a crash loop after N failures within
// a window, failures outside the window forgotten, a server that stayed up starting afresh.
import { describe, expect, it } from "vitest";
import { DEFAULT_BACKOFF, RestartPolicy } from "../../../../src/main/mcp/restart-policy";

const options = { initialMs: 1000, maxMs: 60_000, stableMs: 60_000, crashLoopFailures: 5, windowMs: 5 * 60_000 };

describe("RestartPolicy", () => {
  it("defaults: 1 s doubling to 60 s, reset after a minute up, crash loop at 5 in 5 minutes", () => {
    expect(DEFAULT_BACKOFF).toEqual(options);
  });

  it("doubles the wait each failure and caps it", () => {
    const policy = new RestartPolicy({ ...options, crashLoopFailures: 100, windowMs: 1 });
    const delays = Array.from({ length: 9 }, (_, i) => policy.failed(i * 10));
    expect(delays.map((d) => (d.action === "retry" ? d.delayMs : -1))).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    expect(delays.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("calls it a crash loop at the Nth failure within the window", () => {
    const policy = new RestartPolicy(options);
    const steps = [0, 1000, 3000, 7000, 15000].map((t) => policy.failed(t));
    expect(steps.slice(0, 4).every((s) => s.action === "retry")).toBe(true);
    expect(steps[4]).toEqual({ action: "crash-loop", attempt: 5, failures: 5 });
  });

  it("forgets failures older than the window", () => {
    const policy = new RestartPolicy(options);
    for (const t of [0, 1000, 2000, 3000]) policy.failed(t);
    // Four old failures have left the window: the fifth is no loop.
    expect(policy.failed(10 * 60_000).action).toBe("retry");
  });

  it("starts afresh after staying up for stableMs, not before", () => {
    const policy = new RestartPolicy(options);
    policy.failed(0);
    policy.failed(1000);
    policy.connected(3000);
    expect(policy.failed(3000 + 59_000)).toMatchObject({ action: "retry", attempt: 3, delayMs: 4000 });
    policy.connected(70_000);
    expect(policy.failed(70_000 + 60_000)).toMatchObject({ action: "retry", attempt: 1, delayMs: 1000 });
  });

  it("reset (the person's retry) forgets everything", () => {
    const policy = new RestartPolicy(options);
    for (let t = 0; t < 4; t++) policy.failed(t);
    policy.reset();
    expect(policy.failed(5)).toMatchObject({ action: "retry", attempt: 1 });
  });
});
