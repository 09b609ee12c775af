// Browser mode runs under whatever started it (npm, a shell, a supervisor). When that parent is
// killed, even with SIGKILL, the companion is re-parented (to PID 1 or a subreaper) and nobody
// would stop it: port and servers would live on. So it watches its parent and, once it changed,
// stops in order. `process.ppid` asks the OS each time it is read (getppid), on every platform.

/** The parent when this module was loaded, that is, at start-up. */
const parentAtStart = process.ppid;

/**
 * Calls `onGone` once, within about `intervalMs`, after the parent this process started under is
 * gone (a parent that died while we were still starting counts too). Does nothing when started
 * directly under PID 1 (nothing to outlive). The timer does not keep the process alive. Returns
 * the stop function.
 */
export function watchParent(onGone: () => void, intervalMs = 1000, original = parentAtStart): () => void {
  if (original <= 1) return () => {};
  const check = () => {
    if (process.ppid === original) return false;
    clearInterval(timer);
    onGone();
    return true;
  };
  const timer = setInterval(check, intervalMs);
  timer.unref();
  check();
  return () => clearInterval(timer);
}
