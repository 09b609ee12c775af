// The process groups this companion has started and not yet seen end: one per stdio server
// (GroupStdioTransport spawns each `detached`, so it leads its own group and `kill(-pgid)` reaches
// every descendant that stayed in it, even after the leader itself is gone).
//
// This module only keeps the list and tells listeners. What protects the list when the companion
// dies is installed by the entry points (process/orphan-guard.ts): a watchdog holding a pipe,
// and a registry file the next start reads. Library use and tests that install no guard pay
// nothing here.
//
// Windows (not built here, it cannot be tested on this machine): groups and signals do not
// exist there. The same two hooks would plug in a Job Object instead: at start the guard creates
// one job with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE (SetInformationJobObject) whose only handle the
// companion holds; `groupStarted` assigns the new child to it (AssignProcessToJobObject; children
// it spawns later join the job by default), and `groupEnded` needs nothing. When the companion
// dies, however it dies, the kernel closes its handles, the job's last handle goes, and Windows
// terminates every process in the job: no watchdog and no reaping needed. Node has no binding for
// these calls, so it takes a small native addon (or a helper .exe spawned first that creates the
// job, puts itself and its parent's children in it, and holds the handle).
import { processIdentity } from "./identity";

export interface LiveGroup {
  /** The group id: the pid of its leader, the process we spawned. */
  pgid: number;
  /** processIdentity(pgid) at spawn time; undefined where identities are unknown. */
  identity?: string;
  /** What was run, for logs of a later reaping. */
  command: string;
}

export type GroupEvent = { type: "started"; group: LiveGroup } | { type: "ended"; pgid: number };

const live = new Map<number, LiveGroup>();
const listeners = new Set<(event: GroupEvent) => void>();

function emit(event: GroupEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch {
      // A failing guard must not break spawning servers.
    }
  }
}

/** A server's group now exists; call right after the spawn succeeded. */
export function groupStarted(pgid: number, command: string): void {
  if (!Number.isSafeInteger(pgid) || pgid <= 1 || live.has(pgid)) return;
  const group: LiveGroup = { pgid, command };
  const identity = listeners.size > 0 ? processIdentity(pgid) : undefined;
  if (identity !== undefined) group.identity = identity;
  live.set(pgid, group);
  emit({ type: "started", group });
}

/** The group is gone (its leader exited and the rest were killed); call once. */
export function groupEnded(pgid: number): void {
  if (!live.delete(pgid)) return;
  emit({ type: "ended", pgid });
}

export function liveGroups(): LiveGroup[] {
  return [...live.values()];
}

/** Listens to starts and ends; returns the unsubscribe. */
export function onGroupEvent(listener: (event: GroupEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
