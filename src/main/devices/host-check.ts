// The device listener answers only to its own name: the Host a device sends must be the address
// it listens on (or the public host the person set, for a certificate's name or `tailscale
// serve`), and an Origin, when sent, that name over https. Anything else is a page elsewhere, or
// a DNS name rebound to this address, trying its luck.
import type { IncomingMessage } from "node:http";

export interface HostNames {
  /** `10.0.0.2:7316`, `[fd7a::1]:7316`, `machine.tailnet.ts.net:7316`, and the public host alone. */
  hosts: Set<string>;
}

/** The public host's name and the port devices reach it at (the listener's own unless it says another). */
export function publicEndpoint(publicHost: string, port: number): { name: string; port: number } {
  const match = /^(.*?)(?::(\d{1,5}))?$/.exec(publicHost)!;
  return { name: match[1].toLowerCase(), port: match[2] ? Number(match[2]) : port };
}

/** `https://<name>[:port]` as a browser writes it (no :443). */
export function originOf(name: string, port: number): string {
  return port === 443 ? `https://${name}` : `https://${name}:${port}`;
}

export function hostNames(address: string, port: number, publicHost?: string): HostNames {
  const bracketed = address.includes(":") ? `[${address.toLowerCase()}]` : address;
  const hosts = new Set([`${bracketed}:${port}`]);
  if (publicHost) {
    // `tailscale serve` answers on 443 and passes on the Host it was reached at.
    const endpoint = publicEndpoint(publicHost, port);
    hosts.add(`${endpoint.name}:${endpoint.port}`);
    if (endpoint.port === 443) hosts.add(endpoint.name);
  }
  return { hosts };
}

export function ownHost(req: IncomingMessage, names: HostNames): boolean {
  const host = req.headers.host;
  if (typeof host !== "string" || !names.hosts.has(host.trim().toLowerCase())) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    const url = new URL(String(origin));
    return url.protocol === "https:" && url.origin === String(origin).toLowerCase() && names.hosts.has(url.host);
  } catch {
    return false;
  }
}
