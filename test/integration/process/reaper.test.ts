// Start-up reaping against real process groups and real registry files: a group is ended only
// when its recording companion is gone AND its leader is still the process recorded.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processIdentity } from "../../../src/main/process/identity";
import { reapPredecessors } from "../../../src/main/process/reaper";
import { registryPath, writeRegistry, type RegistryRecord } from "../../../src/main/process/registry-file";
import { stateDir } from "../../../src/main/base/state-dir";
import { ORPHAN_DEADLINE_MS } from "../../../src/shared/limits";
import { isAlive, stubbornGroup, waitForGroupGone, type Group } from "./helpers";

const groups: Group[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const g of groups.splice(0)) g.kill();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function group(): Promise<Group> {
  const g = await stubbornGroup();
  groups.push(g);
  return g;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "tnc-reap-"));
  dirs.push(dir);
  return dir;
}

/** A pid that is certainly not running: a child that has exited and been reaped. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((r) => child.on("exit", r));
  return child.pid!;
}

function record(owner: { pid: number; identity: string }, entries: { pgid: number; identity?: string }[]): RegistryRecord {
  return { version: 1, owner, groups: entries.map((e) => ({ ...e, command: `sh #${e.pgid}` })) };
}

describe("identity", () => {
  it("names a running process stably, differs between processes, and is undefined once it is gone", async () => {
    const me = processIdentity(process.pid);
    expect(me).toMatch(/^linux:[0-9a-f-]{36}:\d+$/);
    expect(processIdentity(process.pid)).toBe(me);
    const g = await group();
    expect(processIdentity(g.pgid)).not.toBe(me);
    expect(processIdentity(await deadPid())).toBeUndefined();
    expect(processIdentity(0)).toBeUndefined();
    expect(processIdentity(-1)).toBeUndefined();
  });
});

describe("reapPredecessors", () => {
  it("ends a dead companion's live group, spares a pid now run by another process, removes the file", async () => {
    const dir = tempDir();
    const ours = await group();
    const reused = await group();
    const owner = { pid: await deadPid(), identity: "linux:gone:1" };
    writeRegistry(dir, record(owner, [
      { pgid: ours.pgid, identity: processIdentity(ours.pgid) },
      // Same pid, another start time: the number was reused by an unrelated process.
      { pgid: reused.pgid, identity: `${processIdentity(reused.pgid)}0` },
    ]));

    const started = Date.now();
    const report = await reapPredecessors(dir, { graceMs: 300 });
    expect(report.reaped).toEqual([`${ours.pgid} (sh #${ours.pgid})`]);
    expect(report.stale).toEqual([reused.pgid]);
    expect(await waitForGroupGone(ours.pgid, ORPHAN_DEADLINE_MS)).toBe(true);
    expect(Date.now() - started).toBeLessThan(ORPHAN_DEADLINE_MS);
    expect(reused.members().filter(isAlive).length).toBe(2);
    expect(existsSync(registryPath(dir, owner.pid))).toBe(false);
  });

  it("leaves a running companion's groups and file alone", async () => {
    const dir = tempDir();
    const theirs = await group();
    // The "companion" is this very test process: alive, with its real identity.
    writeRegistry(dir, record({ pid: process.pid, identity: processIdentity(process.pid)! }, [{ pgid: theirs.pgid, identity: processIdentity(theirs.pgid) }]));
    const report = await reapPredecessors(dir, { graceMs: 300 });
    expect(report).toEqual({ reaped: [], liveOwners: [process.pid], stale: [] });
    expect(theirs.members().filter(isAlive).length).toBe(2);
    expect(existsSync(registryPath(dir, process.pid))).toBe(true);
  });

  it("treats a companion pid now run by another process as gone", async () => {
    const dir = tempDir();
    const ours = await group();
    // The owner pid is alive (this process), but it started at another time: not the owner.
    writeRegistry(dir, record({ pid: process.pid, identity: `${processIdentity(process.pid)}9` }, [{ pgid: ours.pgid, identity: processIdentity(ours.pgid) }]));
    const report = await reapPredecessors(dir, { graceMs: 300 });
    expect(report.reaped.length).toBe(1);
    expect(await waitForGroupGone(ours.pgid, ORPHAN_DEADLINE_MS)).toBe(true);
  });

  it("never signals an entry without identity, its own group, or pid 1; removes unreadable files", async () => {
    const dir = tempDir();
    const unknown = await group();
    writeRegistry(dir, record({ pid: await deadPid(), identity: "linux:gone:2" }, [
      { pgid: unknown.pgid },
      { pgid: process.pid, identity: processIdentity(process.pid) },
    ]));
    writeFileSync(join(dir, "groups-12.json"), "{ not json");
    writeFileSync(join(dir, "groups-13.json"), JSON.stringify({ version: 1, owner: { pid: 13, identity: "x" }, groups: [{ pgid: 1, identity: "y", command: "init" }] }));
    writeFileSync(join(dir, "notes.txt"), "not a registry file");
    const report = await reapPredecessors(dir, { graceMs: 300 });
    expect(report.reaped).toEqual([]);
    expect(isAlive(process.pid)).toBe(true);
    expect(unknown.members().filter(isAlive).length).toBe(2);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
  });

  it("does nothing when the state folder does not exist", async () => {
    expect(await reapPredecessors(join(tempDir(), "missing"), { graceMs: 100 })).toEqual({ reaped: [], liveOwners: [], stale: [] });
  });
});

describe("stateDir", () => {
  it("is TOOLNEXUS_STATE_DIR, else under XDG_STATE_HOME, else ~/.local/state", () => {
    expect(stateDir({ TOOLNEXUS_STATE_DIR: "/x/y", XDG_STATE_HOME: "/s" })).toBe("/x/y");
    expect(stateDir({ XDG_STATE_HOME: "/s" })).toBe("/s/toolnexus-companion");
    expect(stateDir({})).toMatch(/\/\.local\/state\/toolnexus-companion$/);
  });
});
