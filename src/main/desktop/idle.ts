// "I'm at my desk": how long since the person last used this computer (keyboard, mouse), from the
// OS through Electron's powerMonitor. reach/ holds escalation back while it is under a minute.
import { powerMonitor } from "electron";

/** Seconds since the last input; undefined when the OS cannot tell (then nothing is held back). */
export function systemIdleSeconds(): number | undefined {
  try {
    const seconds = powerMonitor.getSystemIdleTime();
    return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
  } catch {
    return undefined;
  }
}
