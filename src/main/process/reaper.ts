// At start: end the process groups a crashed predecessor left behind (its watchdog died too, or
// the machine went down mid-way). A group is killed only when BOTH hold:
//  - the companion that recorded it is gone: no process with its pid and identity (so a running
//    desktop app's servers are safe from a browser-mode companion starting, and vice versa);
//  - the group's leader is still the process recorded: same pid AND same identity (start time).
//    A pid since reused by an unrelated process has another start time and is left alone.
// A group whose leader has exited while members remain is not reaped here: with the leader gone
// nothing proves the members are ours (the running watchdog does cover that case).
import { groupExists, ownProcessGroup, processIdentity, signalGroup } from "./identity";
import { readRegistries } from "./registry-file";
import { rmSync } from "node:fs";

export interface ReapOptions {
  /** Between SIGTERM and SIGKILL. */
  graceMs: number;
  log?: (line: string) => void;
}

export interface ReapReport {
  /** Groups signalled, as `pgid (command)`. */
  reaped: string[];
  /** Registry files of companions still running, left as they are. */
  liveOwners: number[];
  /** Recorded groups left alone because their pid now names another process (or none). */
  stale: number[];
}

export async function reapPredecessors(dir: string, options: ReapOptions): Promise<ReapReport> {
  const log = options.log ?? (() => {});
  const report: ReapReport = { reaped: [], liveOwners: [], stale: [] };
  const targets: number[] = [];
  // Never the group this companion itself belongs to, whatever a (forged) file says.
  const own = ownProcessGroup();
  for (const entry of readRegistries(dir)) {
    const record = entry.record;
    if (!record) {
      log(`reaper: removing unreadable registry file ${entry.path}`);
      rmSync(entry.path, { force: true });
      continue;
    }
    const ownerNow = processIdentity(record.owner.pid);
    if (ownerNow !== undefined && ownerNow === record.owner.identity) {
      report.liveOwners.push(record.owner.pid);
      continue;
    }
    for (const group of record.groups) {
      const now = processIdentity(group.pgid);
      if (group.identity === undefined || now !== group.identity || group.pgid === own || group.pgid === process.pid) {
        report.stale.push(group.pgid);
        continue;
      }
      report.reaped.push(`${group.pgid} (${group.command})`);
      targets.push(group.pgid);
      signalGroup(group.pgid, "SIGTERM");
    }
    rmSync(entry.path, { force: true });
  }
  if (report.reaped.length > 0) log(`reaper: ending process groups a crashed companion left: ${report.reaped.join(", ")}`);
  const deadline = Date.now() + options.graceMs;
  let left = targets.filter(groupExists);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = left.filter(groupExists);
  }
  for (const pgid of left) signalGroup(pgid, "SIGKILL");
  return report;
}
