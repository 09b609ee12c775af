// The watchdog as a real /bin/sh process: what it kills when its pipe closes, what it refuses.
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { WATCHDOG_SCRIPT } from "../../../src/main/process/watchdog-script";
import { groupEnded, groupStarted } from "../../../src/main/process/groups";
import { startWatchdog } from "../../../src/main/process/watchdog";
import { ORPHAN_DEADLINE_MS } from "../../../src/shared/limits";
import { isAlive, stubbornGroup, waitForGroupGone, type Group } from "./helpers";

const groups: Group[] = [];
afterEach(() => {
  for (const g of groups.splice(0)) g.kill();
});

async function group(leaderExits = false): Promise<Group> {
  const g = await stubbornGroup(leaderExits);
  groups.push(g);
  return g;
}

function runWatchdog(graceMs: number, prelude = "") {
  const child = spawn("/bin/sh", ["-c", prelude + WATCHDOG_SCRIPT, "toolnexus-watchdog", String(graceMs)], { detached: true, stdio: ["pipe", "pipe", "ignore"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, exited, out: () => out };
}

describe("the watchdog script", () => {
  it("on EOF ends every listed group, leaderless and SIGTERM-ignoring ones included, and spares unlisted ones", async () => {
    const stubborn = await group();
    const leaderless = await group(true);
    const removed = await group();
    const unlisted = await group();
    const dog = runWatchdog(500);
    dog.child.stdin!.write(`+${stubborn.pgid}\n+${leaderless.pgid}\n+${removed.pgid}\n-${removed.pgid}\n`);
    await new Promise((r) => setTimeout(r, 200));
    // While the pipe is open nothing happens.
    expect(stubborn.members().length).toBe(2);

    const closedAt = Date.now();
    dog.child.stdin!.end();
    expect(await waitForGroupGone(stubborn.pgid, ORPHAN_DEADLINE_MS)).toBe(true);
    expect(await waitForGroupGone(leaderless.pgid, ORPHAN_DEADLINE_MS)).toBe(true);
    const took = Date.now() - closedAt;
    expect(took).toBeLessThan(ORPHAN_DEADLINE_MS);
    // SIGTERM was ignored: it took the SIGKILL after the grace.
    expect(took).toBeGreaterThanOrEqual(400);
    expect(await dog.exited).toBe(0);
    expect(removed.members().filter(isAlive).length).toBe(2);
    expect(unlisted.members().filter(isAlive).length).toBe(2);
  });

  it("exits at once on EOF when nothing is listed", async () => {
    const dog = runWatchdog(5000);
    const started = Date.now();
    dog.child.stdin!.end();
    expect(await dog.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("signals only decimal ids > 1 of at most 9 digits, never itself (kill replaced by a recorder)", async () => {
    // A shell function named kill shadows the builtin: the script's signals are printed, not sent.
    const dog = runWatchdog(0, 'kill() { echo "kill $*"; return 1; }\n');
    const own = dog.child.pid!;
    const lines = ["+1", "+0", "+-1", "+ 5", "+abc", "+12x", "+0012", "+1234567890", "*77", "", `+${own}`, "+4242", "+4242", "+99999", "-99999", "+123456789"];
    dog.child.stdin!.end(lines.join("\n") + "\n");
    expect(await dog.exited).toBe(0);
    const said = dog.out().trim().split("\n");
    expect(said).toEqual(["kill -s TERM -- -4242", "kill -s TERM -- -123456789", "kill -s KILL -- -4242", "kill -s KILL -- -123456789"]);
  });
});

describe("startWatchdog", () => {
  it("tells the watchdog each group that starts and ends; closing the pipe ends the listed groups only", async () => {
    // (The companion being SIGKILLed instead is test/integration/orphans.test.ts.)
    const listed = await group();
    const ended = await group();
    const dog = startWatchdog({ graceMs: 300 });
    try {
      groupStarted(listed.pgid, "sh listed");
      groupStarted(ended.pgid, "sh ended");
      groupEnded(ended.pgid);
      await new Promise((r) => setTimeout(r, 200));
      expect(isAlive(dog.pid()!)).toBe(true);
      const pid = dog.pid()!;
      dog.close();
      expect(await waitForGroupGone(listed.pgid, ORPHAN_DEADLINE_MS)).toBe(true);
      expect(ended.members().filter(isAlive).length).toBe(2);
      await expect.poll(() => isAlive(pid), { timeout: 3000 }).toBe(false);
    } finally {
      groupEnded(listed.pgid);
      dog.close();
    }
  });
});
