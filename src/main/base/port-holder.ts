// Which process holds a TCP port on loopback, so "port in use" can name it. Linux only: the
// listening socket's inode comes from /proc/net/tcp{,6}, and the process is the one with that
// inode among its open files. Elsewhere, or when the holder's files are not ours to read
// (another user's process), the answer is "unknown" and the caller says less.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { endianness } from "node:os";

export interface PortHolder {
  pid: number;
  /** The process's name (/proc/<pid>/comm), cut to printable ASCII: the name is the holder's choice. */
  name: string;
}

const LISTEN = "0A";
/** Bounds the scan on a machine with a great many processes or open files; past them, "unknown". */
const MAX_PROCESSES = 20_000;
const MAX_FDS_PER_PROCESS = 50_000;

/** /proc prints each 32-bit word of an address in host byte order. */
function word(hex: string): string {
  if (endianness() === "BE") return hex.toUpperCase();
  return (hex.match(/../g) ?? []).reverse().join("").toUpperCase();
}

/** The local addresses whose listener blocks binding 127.0.0.1:port: itself and the wildcards. */
function blockingAddresses(port: number): Set<string> {
  const p = port.toString(16).toUpperCase().padStart(4, "0");
  const loop4 = word("7F000001");
  return new Set([
    `${loop4}:${p}`,
    `00000000:${p}`,
    // tcp6: the wildcard "::" (dual-stack) and the IPv4-mapped ::ffff:127.0.0.1
    `${"0".repeat(32)}:${p}`,
    `${"00000000".repeat(2)}${word("0000FFFF")}${loop4}:${p}`,
  ]);
}

/** Inodes of sockets listening where they block 127.0.0.1:port. */
export function listeningInodes(port: number, tables: string[]): Set<string> {
  const wanted = blockingAddresses(port);
  const inodes = new Set<string>();
  for (const table of tables) {
    for (const line of table.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (fields.length < 10 || fields[3] !== LISTEN) continue;
      if (wanted.has(fields[1].toUpperCase()) && /^[1-9]\d*$/.test(fields[9])) inodes.add(fields[9]);
    }
  }
  return inodes;
}

function readOr(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function holderOf(inodes: Set<string>): PortHolder | undefined {
  const targets = new Set([...inodes].map((inode) => `socket:[${inode}]`));
  let processes: string[];
  try {
    processes = readdirSync("/proc").filter((name) => /^\d+$/.test(name)).slice(0, MAX_PROCESSES);
  } catch {
    return undefined;
  }
  for (const pid of processes) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`).slice(0, MAX_FDS_PER_PROCESS);
    } catch {
      continue; // gone, or another user's
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (!targets.has(link)) continue;
      const name = readOr(`/proc/${pid}/comm`).trim().replace(/[^\x20-\x7e]/g, "?").slice(0, 64);
      return { pid: Number(pid), name: name || "?" };
    }
  }
  return undefined;
}

/** The process listening where it blocks 127.0.0.1:port, if this machine can tell. */
export function findPortHolder(port: number): PortHolder | undefined {
  if (process.platform !== "linux") return undefined;
  const inodes = listeningInodes(port, [readOr("/proc/net/tcp"), readOr("/proc/net/tcp6")]);
  return inodes.size === 0 ? undefined : holderOf(inodes);
}

/** ", held by node (pid 1234)", or "" when the holder cannot be found. */
export function describePortHolder(port: number): string {
  const holder = findPortHolder(port);
  return holder ? `, held by ${holder.name} (pid ${holder.pid})` : "";
}
