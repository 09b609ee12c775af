// Real process groups for the process/ tests: a detached `sh` (its own group) that ignores
// SIGTERM, with a `sleep` member that ignores it too (an ignored signal stays ignored across
// exec). Only SIGKILL of the group ends them.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { isAlive } from "../../fixtures";
import { becomesTrue, until } from "../../helpers/poll";

export interface Group {
  pgid: number;
  /** Pids of the group's members (the leader included while it lives). */
  members(): number[];
  kill(): void;
}

/** Every pid whose process group is `pgid` (from /proc). Zombies do not count. */
export function membersOf(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(rest[2]) === pgid && rest[0] !== "Z") out.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/**
 * A detached group of `sh` + one `sleep`, both ignoring SIGTERM. With `leaderExits`, the shell
 * exits at once and only the sleep remains: a group without its leader.
 */
export async function stubbornGroup(leaderExits = false): Promise<Group> {
  const script = leaderExits ? "trap '' TERM; sleep 300 & exit 0" : "trap '' TERM; sleep 300 & wait";
  const child = spawn("/bin/sh", ["-c", script], { detached: true, stdio: "ignore" });
  child.unref();
  const pgid = child.pid!;
  // Wait until the sleep is in the group (and, with leaderExits, the shell has gone).
  const settled = (members: number[]) => (leaderExits ? members.length === 1 && !members.includes(pgid) : members.length === 2);
  await until(() => settled(membersOf(pgid)), 5000, () => `group ${pgid} did not settle: ${membersOf(pgid).join(",")}`);
  return {
    pgid,
    members: () => membersOf(pgid),
    kill: () => {
      try {
        process.kill(-pgid, "SIGKILL");
      } catch {
        // gone
      }
    },
  };
}

/** Polls until no process of the group is alive; false if some still are after timeoutMs. */
export function waitForGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  return becomesTrue(() => membersOf(pgid).filter(isAlive).length === 0, timeoutMs);
}

export { isAlive };
