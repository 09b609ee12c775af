// Children die with the companion, however it dies. The real browser-mode bundle (what `npm run
// serve` runs) with two stdio servers whose grandchildren ignore SIGTERM — one server ignores
// SIGTERM and stdin EOF as well — is SIGKILLed, crashed, aborted, or loses its parent; every
// server and descendant must be gone within ORPHAN_DEADLINE_MS. And at start it reaps groups a
// crashed predecessor left, never a pid since reused.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ORPHAN_DEADLINE_MS } from "../../src/shared/limits";
import { processIdentity } from "../../src/main/process/identity";
import { KEYCHAIN_HELPER_NAME } from "../../src/main/secrets/keychain-child";
import { registryPath, writeRegistry } from "../../src/main/process/registry-file";
import { fixtureCommand, isAlive, repoRoot } from "../fixtures";
import { stubbornGroup, type Group } from "./process/helpers";

// Its own copy of the bundle, directly under out/ (see scripts/build-serve.mjs).
const bundleDir = join(repoRoot, "out", `serve-orphans-${process.pid}`);
const bundle = join(bundleDir, "serve.js");
const crashHook = join(repoRoot, "test", "fixtures", "orphan-crash-hook.mjs");

beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-serve.mjs"], { cwd: repoRoot, env: { ...process.env, SERVE_OUT: bundleDir }, stdio: "pipe" });
}, 60_000);
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "tnc-orphans-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function psRows(): { pid: number; ppid: number; args: string }[] {
  return execFileSync("ps", ["-e", "-o", "pid=,ppid=,args="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => {
      const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line)!;
      return { pid: Number(m[1]), ppid: Number(m[2]), args: m[3] };
    });
}

/** Every live descendant of pid (the descendants() walker of http-serve.test.ts, with args). */
function descendants(pid: number): { pid: number; args: string }[] {
  const rows = psRows();
  const found: { pid: number; args: string }[] = [];
  const walk = (parent: number) => {
    for (const row of rows) {
      if (row.ppid === parent) {
        found.push(row);
        walk(row.pid);
      }
    }
  };
  walk(pid);
  return found;
}

interface Running {
  /** What the test spawned: the companion itself, or its wrapper. */
  child: ChildProcess;
  companion: number;
  watchdog: number;
  /** Every pid the companion started (servers, grandchildren, watchdog). */
  spawned: number[];
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

interface StartOptions {
  stateDir?: string;
  /** Node flags before the bundle (the crash hook). */
  nodeArgs?: string[];
  /** Run under `sh -c '…; exit'`, so sh stays the parent (as npm does). */
  wrapped?: boolean;
  /** Without the two stubborn servers. */
  noServers?: boolean;
}

async function startCompanion(options: StartOptions = {}): Promise<Running> {
  const dir = tempDir();
  const servers = options.noServers
    ? {}
    : {
        tree: { ...fixtureCommand("grandchild"), env: { PIDS_FILE: join(dir, "tree.json") } },
        stub: { ...fixtureCommand("orphan-stubborn"), env: { PIDS_FILE: join(dir, "stub.json") } },
      };
  const config = join(dir, "mcp.json");
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  const argv = [...(options.nodeArgs ?? []), bundle, "--config", config, "--port", "0"];
  const env = { ...process.env, XDG_CONFIG_HOME: dir, TOOLNEXUS_STATE_DIR: options.stateDir ?? join(dir, "state") };
  const child = options.wrapped
    ? spawn("/bin/sh", ["-c", `"$@"; exit $?`, "sh", process.execPath, ...argv], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] })
    : spawn(process.execPath, argv, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  let stdout = "";
  child.stderr!.on("data", (d) => (stderr += d));
  child.stdout!.on("data", (d) => (stdout += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on("exit", (code, signal) => r({ code, signal })));
  // Whatever a failing test leaves: the processes seen so far, and their groups (orphans of a
  // dead companion are no longer its descendants, so they are remembered, not looked up).
  const seen = new Set<number>();
  cleanups.push(() => {
    for (const p of descendants(child.pid!)) seen.add(p.pid);
    for (const pid of seen) {
      for (const target of [-pid, pid]) {
        try {
          process.kill(target, "SIGKILL");
        } catch {
          // gone, or not a group leader
        }
      }
    }
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  const remember = () => {
    for (const p of descendants(child.pid!)) seen.add(p.pid);
  };
  child.stderr!.on("data", remember);

  // Running, or gone: a companion that exits (or crashes) at start fails here with what it said.
  let ended = "";
  void exited.then(({ code, signal }) => (ended = `exited (code ${code}, signal ${signal})`));
  const deadline = Date.now() + 30_000;
  while (!/Toolnexus Companion is running/.test(stdout)) {
    if (ended || Date.now() > deadline) throw new Error(`the companion did not start: ${ended || "no link within 30 s"}; it wrote:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  if (!options.noServers) {
    await expect.poll(() => stderr, { timeout: 30_000 }).toMatch(/server tree: connected/);
    await expect.poll(() => stderr, { timeout: 30_000 }).toMatch(/server stub: connected/);
  }
  const companion = options.wrapped ? descendants(child.pid!).find((p) => p.args.includes(bundle))!.pid : child.pid!;
  const kids = descendants(companion);
  const watchdog = kids.find((p) => p.args.includes("toolnexus-companion watchdog"))?.pid;
  expect(watchdog, `no watchdog among ${JSON.stringify(kids)}`).toBeDefined();
  const spawned = kids.map((p) => p.pid);
  for (const pid of [companion, ...spawned]) seen.add(pid);
  if (!options.noServers) {
    for (const name of ["tree", "stub"]) {
      const pids = JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as { server: number; grandchild: number };
      expect(spawned).toEqual(expect.arrayContaining([pids.server, pids.grandchild]));
    }
    // Two servers with one grandchild each, and the watchdog; the keychain helper (it dies with
    // the companion too, so it stays in `spawned`) until it idles out.
    expect(kids.filter((p) => !p.args.includes(KEYCHAIN_HELPER_NAME)).length).toBe(5);
  }
  return { child, companion, watchdog: watchdog!, spawned, stderr: () => stderr, exited };
}

/** How long until none of pids is alive; fails past the deadline, naming the survivors. */
async function goneWithin(pids: number[], deadlineMs: number, since: number): Promise<number> {
  while (Date.now() - since < deadlineMs) {
    if (pids.every((p) => !isAlive(p))) return Date.now() - since;
    await new Promise((r) => setTimeout(r, 25));
  }
  const survivors = psRows().filter((row) => pids.includes(row.pid) && isAlive(row.pid));
  expect(survivors, `still alive ${deadlineMs} ms later`).toEqual([]);
  return Date.now() - since;
}

describe("children die with the companion", () => {
  it("SIGKILL of the companion: servers, SIGTERM-ignoring grandchildren and the watchdog are gone within the deadline", async () => {
    const run = await startCompanion();
    const killedAt = Date.now();
    process.kill(run.companion, "SIGKILL");
    expect((await run.exited).signal).toBe("SIGKILL");
    const took = await goneWithin(run.spawned, ORPHAN_DEADLINE_MS, killedAt);
    console.log(`orphans: SIGKILL → ${run.spawned.length} processes gone in ${took} ms`);
  });

  it("a crash (uncaught exception): the same", async () => {
    const run = await startCompanion({ nodeArgs: ["--import", crashHook] });
    const crashedAt = Date.now();
    process.kill(run.companion, "SIGUSR2");
    const exit = await run.exited;
    expect(run.stderr()).toContain("crashing the companion on purpose");
    expect(exit.code).not.toBe(0);
    const took = await goneWithin(run.spawned, ORPHAN_DEADLINE_MS, crashedAt);
    console.log(`orphans: uncaught exception → gone in ${took} ms`);
  });

  it("a native crash (abort, SIGABRT): the same", async () => {
    const run = await startCompanion({ nodeArgs: ["--import", crashHook] });
    const crashedAt = Date.now();
    process.kill(run.companion, "SIGWINCH");
    expect((await run.exited).signal).toBe("SIGABRT");
    await goneWithin(run.spawned, ORPHAN_DEADLINE_MS, crashedAt);
  });

  it("its parent SIGKILLed (as npm or a wrapper would be): the companion stops in order and its servers go with it", async () => {
    const run = await startCompanion({ wrapped: true });
    expect(run.companion).not.toBe(run.child.pid);
    const killedAt = Date.now();
    run.child.kill("SIGKILL");
    const took = await goneWithin([run.companion, ...run.spawned], ORPHAN_DEADLINE_MS, killedAt);
    // It noticed and took the orderly path (SIGTERM's), not the watchdog's.
    expect(run.stderr()).toContain("parent exited: cancelling pending questions and stopping servers");
    console.log(`orphans: parent SIGKILL → companion and servers gone in ${took} ms`);
  });
});

describe("reaping at start", () => {
  const groups: Group[] = [];
  afterEach(() => {
    for (const g of groups.splice(0)) g.kill();
  });

  it("ends a live group a crashed predecessor recorded, and leaves a pid that was reused alone", async () => {
    const stateDir = tempDir();
    const left = await stubbornGroup();
    const reused = await stubbornGroup();
    groups.push(left, reused);
    // A predecessor that is gone: its pid exited and was reaped.
    const gone = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await new Promise((r) => gone.on("exit", r));
    writeRegistry(stateDir, {
      version: 1,
      owner: { pid: gone.pid!, identity: "linux:a-boot-long-ago:42" },
      groups: [
        { pgid: left.pgid, identity: processIdentity(left.pgid), command: "node left-behind.mjs" },
        // Recorded with another start time: today's process behind this pid is someone else's.
        { pgid: reused.pgid, identity: processIdentity(reused.pgid)!.replace(/\d+$/, (t) => String(Number(t) - 1)), command: "node old.mjs" },
      ],
    });
    expect(left.members().length).toBe(2);

    const startedAt = Date.now();
    const run = await startCompanion({ stateDir, noServers: true });
    expect(run.stderr()).toContain(`reaper: ending process groups a crashed companion left: ${left.pgid} (node left-behind.mjs)`);
    await goneWithin(left.members(), ORPHAN_DEADLINE_MS, startedAt);
    expect(reused.members().filter(isAlive).length).toBe(2);
    expect(existsSync(registryPath(stateDir, gone.pid!))).toBe(false);
  });

  it("records its own groups while it runs, and removes the record on an orderly exit", async () => {
    const stateDir = tempDir();
    const run = await startCompanion({ stateDir });
    const file = registryPath(stateDir, run.companion);
    const record = JSON.parse(readFileSync(file, "utf8")) as { owner: { pid: number; identity: string }; groups: { pgid: number; identity: string }[] };
    expect(record.owner).toEqual({ pid: run.companion, identity: processIdentity(run.companion) });
    expect(record.groups.length).toBe(2);
    for (const g of record.groups) expect(g.identity).toBe(processIdentity(g.pgid));
    run.child.kill("SIGTERM");
    expect((await run.exited).code).toBe(0);
    expect(existsSync(file)).toBe(false);
    await goneWithin(run.spawned, ORPHAN_DEADLINE_MS, Date.now());
  });
});
