// The companion's end of the watchdog (watchdog-script.ts): spawn it, tell it each group that
// starts and ends, and hold the pipe. Nothing has to be done when the companion dies: the kernel
// closes the pipe, and that EOF is the watchdog's signal.
import { spawn, type ChildProcess } from "node:child_process";
import type { Writable } from "node:stream";
import { liveGroups, onGroupEvent, type GroupEvent } from "./groups";
import { WATCHDOG_SCRIPT } from "./watchdog-script";

export interface WatchdogOptions {
  /** Between the watchdog's SIGTERM and its SIGKILL of what is left. */
  graceMs: number;
  log?: (line: string) => void;
  /** The shell; /bin/sh unless a test says otherwise. */
  shell?: string;
}

export interface Watchdog {
  /** The watchdog's pid, while it runs. */
  pid(): number | undefined;
  /**
   * Closes the pipe on purpose (an orderly exit): the watchdog then ends any group still listed,
   * exactly as if the companion had died, and exits.
   */
  close(): void;
}

/** A crash-looping watchdog (no /bin/sh?) is not worth more than a few tries per run. */
const MAX_RESTARTS = 3;

export function startWatchdog(options: WatchdogOptions): Watchdog {
  const log = options.log ?? (() => {});
  let child: ChildProcess | undefined;
  let restarts = 0;
  let closed = false;

  const write = (line: string) => {
    const stdin = child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) return false;
    stdin.write(`${line}\n`);
    return true;
  };

  const launch = () => {
    const shell = options.shell ?? "/bin/sh";
    const started = spawn(shell, ["-c", WATCHDOG_SCRIPT, "toolnexus-watchdog", String(Math.max(0, Math.round(options.graceMs)))], {
      // Its own session: a terminal's Ctrl-C or hang-up meant for the companion does not reach it,
      // and it does not hold the companion's terminal.
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
      cwd: "/",
      windowsHide: true,
    });
    child = started;
    // Neither the process nor the pipe may keep the companion's event loop alive.
    started.unref();
    (started.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    started.stdin?.on("error", () => {
      // EPIPE: the watchdog died; its exit handler restarts it.
    });
    started.once("error", (error) => log(`watchdog: could not start ${shell}: ${error.message}`));
    started.once("exit", (code, signal) => {
      if (child === started) child = undefined;
      if (closed) return;
      log(`watchdog: exited unexpectedly (${signal ?? `code ${code}`})`);
      if (restarts++ < MAX_RESTARTS) launch();
      else log("watchdog: not restarted again; servers may outlive a crash of the companion");
    });
    // A new watchdog starts knowing nothing: replay what is alive now.
    for (const group of liveGroups()) write(`+${group.pgid}`);
  };

  launch();
  const stop = onGroupEvent((event: GroupEvent) => {
    if (event.type === "started") write(`+${event.group.pgid}`);
    else write(`-${event.pgid}`);
  });

  return {
    pid: () => child?.pid,
    close() {
      if (closed) return;
      closed = true;
      stop();
      (child?.stdin as Writable | undefined)?.end();
      child = undefined;
    },
  };
}
