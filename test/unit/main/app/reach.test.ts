// The composition's adapters: paired devices (as devices/devices.ts offers them) become reach's
// push targets and link base, and a subscription the push service says is gone is forgotten there.
import { describe, expect, it } from "vitest";
import { devicesForReach, reachPublicRoute, type PairedDevicesPort } from "../../../../src/main/app/reach";

describe("reach's adapters", () => {
  it("reads the devices' subscriptions and forgets one on the registry", () => {
    const forgotten: string[] = [];
    const keys = { p256dh: "BAAA", auth: "AAAA" };
    const registry: PairedDevicesPort = {
      list: () => [
        { id: "d1", name: "Phone", push: { endpoint: "https://push.example/1", keys } },
        { id: "d2", name: "Tablet" },
      ],
      setPushSubscription: (id) => (forgotten.push(id), true),
      baseUrl: () => "https://10.0.0.2:7316",
    };
    const { targets, linkBase } = devicesForReach(registry);
    expect(targets.list()).toEqual([
      { id: "d1", name: "Phone", subscription: { endpoint: "https://push.example/1", keys } },
      { id: "d2", name: "Tablet" },
    ]);
    targets.forget?.("d1");
    expect(forgotten).toEqual(["d1"]);
    expect(linkBase()).toBe("https://10.0.0.2:7316");
  });

  it("mounts the signed actions under /v1/reach/act", () => {
    expect(reachPublicRoute({ actionRoute: () => true }).prefix).toBe("/v1/reach/act");
  });
});
