import { describe, expect, it } from "vitest";
import { ConcurrencyLimit } from "../../../../src/main/base/concurrency";

describe("ConcurrencyLimit", () => {
  it("runs at most max tasks at once, in arrival order, and passes results and errors through", async () => {
    const limit = new ConcurrencyLimit(3);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const tasks = Array.from({ length: 20 }, (_, i) =>
      limit.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await new Promise((resolve) => setTimeout(resolve, 2));
        running--;
        if (i === 5) throw new Error("five");
        return i;
      }),
    );
    const settled = await Promise.allSettled(tasks);
    expect(most).toBe(3);
    expect(order).toEqual([...Array(20).keys()]);
    expect(settled[5]).toMatchObject({ status: "rejected", reason: new Error("five") });
    expect(settled[19]).toMatchObject({ status: "fulfilled", value: 19 });
    expect(limit.active).toBe(0);
    expect(limit.queued).toBe(0);
  });

  it("tasks that end at once do not start the whole queue in one turn of the event loop", async () => {
    const limit = new ConcurrencyLimit(1);
    let started = 0;
    const all = Promise.all(Array.from({ length: 100 }, () => limit.run(async () => void started++)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBeLessThan(100);
    await all;
    expect(started).toBe(100);
  });

  it("refuses a limit that is not a whole number of at least 1", () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new ConcurrencyLimit(bad)).toThrow(RangeError);
  });
});
