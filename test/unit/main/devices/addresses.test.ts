import { describe, expect, it } from "vitest";
import { addressProblem, deviceAddresses } from "../../../../src/main/devices/addresses";

const info = (address: string, family: "IPv4" | "IPv6", internal = false) => ({ address, family, internal, netmask: "", mac: "", cidr: null }) as never;

describe("the addresses a person may pick", () => {
  const list = deviceAddresses({
    lo: [info("127.0.0.1", "IPv4", true), info("::1", "IPv6", true)],
    wlan0: [info("192.168.1.20", "IPv4"), info("fe80::1", "IPv6")],
    tailscale0: [info("100.101.102.103", "IPv4"), info("fd7a:115c:a1e0::1", "IPv6")],
  });
  it("lists this machine's interfaces, tailnet first, no loopback and no link-local", () => {
    expect(list.map((a) => a.address)).toEqual(["100.101.102.103", "fd7a:115c:a1e0::1", "192.168.1.20"]);
    expect(list.filter((a) => a.tailnet).map((a) => a.interface)).toEqual(["tailscale0", "tailscale0"]);
  });
  it("never takes a wildcard, and only an address the machine has", () => {
    expect(addressProblem("0.0.0.0", list)).toMatch(/never listens on every address/);
    expect(addressProblem("::", list)).toMatch(/never listens on every address/);
    expect(addressProblem(undefined, list)).toMatch(/pick the address/);
    expect(addressProblem("10.9.9.9", list)).toMatch(/not an address/);
    expect(addressProblem("192.168.1.20", list)).toBeUndefined();
  });
});
