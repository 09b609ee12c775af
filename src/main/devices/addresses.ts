// The addresses a person may pick for the device listener: this machine's interfaces, without
// loopback (a phone cannot reach it) and without link-local IPv6 (it needs a zone). Never a
// wildcard: 0.0.0.0 would answer on every network the machine joins, the café's included.
import os from "node:os";
import type { DeviceAddress } from "../../shared/devices";

function isTailnet(address: string, family: string): boolean {
  if (family === "IPv6") return address.toLowerCase().startsWith("fd7a:115c:a1e0:");
  const [a, b] = address.split(".").map(Number);
  return a === 100 && b >= 64 && b <= 127;
}

export function deviceAddresses(interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces()): DeviceAddress[] {
  const out: DeviceAddress[] = [];
  for (const [name, infos] of Object.entries(interfaces)) {
    for (const info of infos ?? []) {
      if (info.internal) continue;
      if (info.family === "IPv6" && info.address.toLowerCase().startsWith("fe80:")) continue;
      out.push({ address: info.address, interface: name, family: info.family, tailnet: isTailnet(info.address, info.family) });
    }
  }
  // Tailnet first: reachable from anywhere the person is, and only by their own devices.
  return out.sort((a, b) => Number(b.tailnet) - Number(a.tailnet) || (a.family === b.family ? 0 : a.family === "IPv4" ? -1 : 1));
}

/** Why `address` may not be listened on, or undefined when it is one of this machine's. */
export function addressProblem(address: string | undefined, addresses: DeviceAddress[]): string | undefined {
  if (!address) return "pick the address devices reach this computer at";
  if (address === "0.0.0.0" || address === "::") return "the device listener never listens on every address at once; pick one";
  if (!addresses.some((a) => a.address === address)) return `${address} is not an address of this computer's network interfaces now`;
  return undefined;
}
