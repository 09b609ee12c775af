// What makes the servers die with the companion, however it dies; installed once by each entry
// point (serve.ts, index.ts) before any server starts:
//  1. reap what a crashed predecessor left (reaper.ts), guarded against pid reuse;
//  2. start the watchdog (watchdog.ts), which ends every live group when our pipe closes — on
//     SIGKILL, a crash, an abort, the OOM killer: the kernel closes it in every case;
//  3. keep this companion's registry file (registry-file.ts) for step 1 of the next start, in
//     case the watchdog was killed too (a killed session, a power-off).
// An orderly exit closes servers itself; the registry file is removed once none is left.
import { ORPHAN_DEADLINE_MS } from "../../shared/limits";
import { liveGroups, onGroupEvent } from "./groups";
import { processIdentity } from "./identity";
import { reapPredecessors, type ReapReport } from "./reaper";
import { removeRegistry, writeRegistry } from "./registry-file";
import { stateDir } from "../base/state-dir";
import { startWatchdog, type Watchdog } from "./watchdog";

/**
 * SIGTERM first, SIGKILL after this. Well inside ORPHAN_DEADLINE_MS: the watchdog reads EOF at
 * once, so a group that ignores SIGTERM is gone a little after the grace.
 */
const ORPHAN_KILL_GRACE_MS = Math.floor(ORPHAN_DEADLINE_MS * 0.4);

export interface OrphanGuardOptions {
  log?: (line: string) => void;
  /** Where registry files live; stateDir() (TOOLNEXUS_STATE_DIR, XDG_STATE_HOME) otherwise. */
  dir?: string;
}

export interface OrphanGuard {
  /** What start-up reaping did. */
  reaped: ReapReport;
  watchdog: Watchdog | undefined;
  /** Orderly exit, after the servers were closed: removes the registry file, lets the watchdog go. */
  close(): void;
}

let installed: OrphanGuard | undefined;

export async function installOrphanGuard(options: OrphanGuardOptions = {}): Promise<OrphanGuard> {
  if (installed) return installed;
  const log = options.log ?? (() => {});
  const dir = options.dir ?? stateDir();
  let reaped: ReapReport = { reaped: [], liveOwners: [], stale: [] };
  try {
    reaped = await reapPredecessors(dir, { graceMs: ORPHAN_KILL_GRACE_MS, log });
  } catch (error) {
    log(`reaper: skipped (${(error as Error).message})`);
  }

  // Windows: no process groups and no sh; a Job Object would take the watchdog's place (groups.ts).
  const watchdog = process.platform === "win32" ? undefined : startWatchdog({ graceMs: ORPHAN_KILL_GRACE_MS, log });

  const ownIdentity = processIdentity(process.pid);
  let writeFailed = false;
  const save = () => {
    if (ownIdentity === undefined) return; // without identities a later start could not reap safely
    try {
      const groups = liveGroups().filter((g) => g.identity !== undefined);
      if (groups.length === 0) removeRegistry(dir, process.pid);
      else writeRegistry(dir, { version: 1, owner: { pid: process.pid, identity: ownIdentity }, groups });
    } catch (error) {
      if (!writeFailed) log(`reaper: cannot write its registry in ${dir} (${(error as Error).message}); a crash may leave servers running`);
      writeFailed = true;
    }
  };
  const unsubscribe = onGroupEvent(save);
  // On any exit with no server left running; after a crash with servers alive the file stays,
  // for the next start to check (the watchdog normally got there first).
  const removeOnExit = () => {
    if (liveGroups().length > 0) return;
    try {
      removeRegistry(dir, process.pid);
    } catch {
      // Best effort at exit; the next start reads a dead owner and cleans it.
    }
  };
  process.once("exit", removeOnExit);

  const guard: OrphanGuard = {
    reaped,
    watchdog,
    close() {
      unsubscribe();
      watchdog?.close();
      removeOnExit();
      process.removeListener("exit", removeOnExit);
      installed = undefined;
    },
  };
  installed = guard;
  return guard;
}
