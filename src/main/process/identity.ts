// Who a pid is, beyond its number: pids are reused, so "kill the group we started" is only safe
// when the process behind the number is still the one we recorded. The identity is an opaque
// token, equal only for the same process:
//   Linux: boot id + start time in clock ticks since boot (field 22 of /proc/<pid>/stat);
//   macOS: `ps -o lstart=` (the start time to the second, which with the pid is unique enough);
//   elsewhere (Windows): unknown — there a Job Object ends the children instead (groups.ts).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

let bootId: string | undefined;

function linuxBootId(): string {
  // Ticks restart at every boot; the boot id tells a pid of this boot from one of the last.
  bootId ??= readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  return bootId;
}

/** Field 22 of /proc/<pid>/stat, or undefined when the process is gone (or a zombie). */
function linuxStartTicks(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // rest[0] is field 3 (state); field 22 is rest[19].
  if (rest[0] === "Z" || rest[0] === "X") return undefined;
  const ticks = rest[19];
  return ticks && /^\d+$/.test(ticks) ? ticks : undefined;
}

/** This process's group id where /proc tells it (Linux); undefined elsewhere. */
export function ownProcessGroup(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]); // field 5
    return Number.isSafeInteger(pgrp) ? pgrp : undefined;
  } catch {
    return undefined;
  }
}

function validPid(pid: number): boolean {
  return Number.isSafeInteger(pid) && pid > 0;
}

/** An opaque token naming the process behind `pid` now; undefined when gone or unknowable. */
export function processIdentity(pid: number): string | undefined {
  if (!validPid(pid)) return undefined;
  if (process.platform === "linux") {
    const ticks = linuxStartTicks(pid);
    return ticks === undefined ? undefined : `linux:${linuxBootId()}:${ticks}`;
  }
  if (process.platform === "darwin") {
    try {
      const started = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], { encoding: "utf8", timeout: 2000, stdio: ["ignore", "pipe", "ignore"] }).trim();
      return started ? `darwin:${started}` : undefined;
    } catch {
      return undefined; // ps exits 1 when the pid is gone
    }
  }
  return undefined;
}

/** Whether any process of group `pgid` still exists (the leader may be gone, members not). */
export function groupExists(pgid: number): boolean {
  if (!validPid(pgid) || pgid === 1) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Sends `signal` to every process of group `pgid`; never to pid 1's group or "all" (-1). */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  if (!validPid(pgid) || pgid === 1) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
