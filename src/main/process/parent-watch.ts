// Browser mode runs under whatever started it (npm, a shell, a supervisor). When that parent is
// killed, even with SIGKILL, the companion is re-parented (to PID 1 or a subreaper) and nobody
// would stop it: port and servers would live on. So it watches its parent and, once it is gone,
// stops in order. Node's `process.ppid` is read once at start-up, so the live parent comes from
// /proc on Linux; elsewhere, from whether the original parent pid still exists.
import { readFileSync } from "node:fs";

function currentParent(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]); // field 4
    return Number.isSafeInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the parent we started under is gone (we were re-parented). */
export function parentGone(original: number): boolean {
  const now = currentParent();
  if (now !== undefined) return now !== original;
  return !exists(original);
}

/**
 * Calls `onGone` once, within about `intervalMs`, after the parent this process started under is
 * gone. Does nothing when started directly under PID 1 (nothing to outlive). The timer does not
 * keep the process alive. Returns the stop function.
 */
export function watchParent(onGone: () => void, intervalMs = 1000): () => void {
  const original = currentParent() ?? process.ppid;
  if (original <= 1) return () => {};
  const timer = setInterval(() => {
    if (!parentGone(original)) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
