import { describe, expect, it } from "vitest";
import { deviceName, Pairing } from "../../../../src/main/devices/pairing";
import { hashSecret, readDeviceKey } from "../../../../src/main/devices/keys";
import { PAIRING_CODE_MS } from "../../../../src/shared/devices";

describe("pairing codes", () => {
  it("work once, for five minutes, and only the latest one", () => {
    let now = 1_000;
    const pairing = new Pairing(() => now);
    const first = pairing.offer();
    const second = pairing.offer();
    expect(pairing.ask(first.code, "Phone", "10.0.0.2")).toEqual({ ok: false });
    const asked = pairing.ask(second.code, "Phone", "10.0.0.2");
    expect(asked.ok).toBe(true);
    expect(pairing.ask(second.code, "Tablet", "10.0.0.3")).toEqual({ ok: false });
    const third = pairing.offer();
    now += PAIRING_CODE_MS;
    expect(pairing.ask(third.code, "Late", "10.0.0.4")).toEqual({ ok: false });
    expect(pairing.offerExpiresAt()).toBeUndefined();
  });

  it("keeps a device that asked until the person answers or the code's time is up", () => {
    let now = 1_000;
    const pairing = new Pairing(() => now);
    const asked = pairing.ask(pairing.offer().code, "  Phone\u202e  ", "10.0.0.2");
    if (!asked.ok) throw new Error("refused");
    const parts = readDeviceKey(asked.key)!;
    expect(parts.id).toBe(asked.id);
    expect(pairing.list()).toEqual([{ id: asked.id, name: "Phone", from: "10.0.0.2", askedAt: 1_000 }]);
    expect(pairing.waiting(asked.id, hashSecret(parts.secret))?.name).toBe("Phone");
    expect(pairing.waiting(asked.id, hashSecret("another"))).toBeUndefined();
    now += PAIRING_CODE_MS;
    expect(pairing.list()).toEqual([]);
    expect(pairing.settle(asked.id)).toBeUndefined();
  });

  it("refuses a code that is not one, and a nameless device", () => {
    const pairing = new Pairing();
    const { code } = pairing.offer();
    expect(pairing.ask(42, "Phone", "x")).toEqual({ ok: false });
    expect(pairing.ask(code, "   ", "x")).toEqual({ ok: false });
    expect(pairing.ask(code, 7, "x")).toEqual({ ok: false });
    expect(deviceName("a".repeat(100))).toHaveLength(40);
    expect(deviceName("\u0000\u200b")).toBeUndefined();
  });
});
