import { describe, expect, it } from "vitest";
import { AddressLimit } from "../../../../src/main/devices/rate-limit";

describe("attempts per address", () => {
  it("holds an address back past its bound for the rest of its window, others not", () => {
    let now = 0;
    const limit = new AddressLimit(3, 60_000, () => now);
    expect([1, 2, 3, 4].map(() => limit.take("10.0.0.2"))).toEqual([true, true, true, false]);
    expect(limit.blocked("10.0.0.2")).toBe(true);
    expect(limit.take("10.0.0.3")).toBe(true);
    now += 60_000;
    expect(limit.blocked("10.0.0.2")).toBe(false);
    expect(limit.take("10.0.0.2")).toBe(true);
  });

  it("keeps a bounded table of addresses, refusing new ones while it is full of live windows", () => {
    let now = 0;
    const limit = new AddressLimit(3, 60_000, () => now, 2);
    expect(limit.take("a")).toBe(true);
    expect(limit.take("b")).toBe(true);
    expect(limit.take("c")).toBe(false);
    now += 60_000;
    expect(limit.take("c")).toBe(true);
  });
});
