import { describe, expect, it } from "vitest";
import type { IncomingMessage } from "node:http";
import { hostNames, originOf, ownHost, publicEndpoint } from "../../../../src/main/devices/host-check";

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe("the device listener's own name", () => {
  const names = hostNames("10.231.0.1", 7316);
  it("is the address and port it listens on, with an https Origin of the same", () => {
    expect(ownHost(req({ host: "10.231.0.1:7316" }), names)).toBe(true);
    expect(ownHost(req({ host: "10.231.0.1:7316", origin: "https://10.231.0.1:7316" }), names)).toBe(true);
    for (const headers of <Record<string, string>[]>[
      {},
      { host: "10.231.0.1" },
      { host: "127.0.0.1:7316" },
      { host: "localhost:7316" },
      { host: "evil.example:7316" },
      { host: "10.231.0.1:7316", origin: "http://10.231.0.1:7316" },
      { host: "10.231.0.1:7316", origin: "https://evil.example" },
      { host: "10.231.0.1:7316", origin: "null" },
      { host: "10.231.0.1:7316", origin: "https://10.231.0.1:7316/x" },
    ]) {
      expect(ownHost(req(headers), names), JSON.stringify(headers)).toBe(false);
    }
  });

  it("takes a public host name, at 443 without a port as browsers write it", () => {
    const served = hostNames("100.101.102.103", 7316, "machine.tailnet.ts.net:443");
    expect(ownHost(req({ host: "machine.tailnet.ts.net", origin: "https://machine.tailnet.ts.net" }), served)).toBe(true);
    expect(ownHost(req({ host: "machine.tailnet.ts.net:7316" }), served)).toBe(false);
    const own = hostNames("100.101.102.103", 7316, "machine.tailnet.ts.net");
    expect(ownHost(req({ host: "machine.tailnet.ts.net:7316", origin: "https://machine.tailnet.ts.net:7316" }), own)).toBe(true);
    expect(publicEndpoint("Machine.ts.net:443", 7316)).toEqual({ name: "machine.ts.net", port: 443 });
    expect(originOf("machine.ts.net", 443)).toBe("https://machine.ts.net");
  });

  it("brackets an IPv6 address", () => {
    expect(ownHost(req({ host: "[fd7a:115c:a1e0::1]:7316" }), hostNames("fd7a:115c:a1e0::1", 7316))).toBe(true);
  });
});
