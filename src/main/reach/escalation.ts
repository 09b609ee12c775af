// When a question is passed on. One not answered within N minutes (approvals: their own N) goes
// to the paired devices, then M minutes later to the channels; with no device that allows
// notifications, straight to the channels at N. While the desktop was used in the last minute
// ("I'm at my desk") nothing is passed on, and it is tried again once the desk has been idle a
// minute. During quiet hours the channels wait for the hours to end; the devices are still told
// (a phone has its own do-not-disturb, and pairing it was the person's choice). An answered or
// withdrawn question cancels what was pending. Every time is read from the injected clock.
import type { PendingEntry } from "../../shared/types";
import type { QuietHours } from "../../shared/reach";
import type { Clock } from "./types";
import type { ReachSettings } from "./settings-file";

/** The desktop counts as in use when it was used this recently. */
export const AT_DESK_SECONDS = 60;
const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;

export interface EscalationDeps {
  clock: Clock;
  settings: () => ReachSettings;
  /** Seconds since the desktop was last used (Electron's powerMonitor); undefined: cannot tell, never held. */
  idleSeconds?: () => number | undefined;
  /** Minutes since local midnight at `ms`; the local time zone by default. */
  minuteOfDay?: (ms: number) => number;
  /** A paired device allows notifications. */
  hasDevices: () => boolean;
  toDevices: (entry: PendingEntry) => void;
  toChannels: (entry: PendingEntry) => void;
}

type Stage = "devices" | "channels";

interface Tracked {
  entry: PendingEntry;
  stage: Stage;
  timer: unknown;
}

const localMinute = (ms: number) => {
  const d = new Date(ms);
  return d.getHours() * 60 + d.getMinutes();
};

function toMinute(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
}

/** Minutes from `minute` until quiet hours end, or 0 when it is not quiet. */
export function quietMinutesLeft(quiet: QuietHours | undefined, minute: number): number {
  if (!quiet) return 0;
  const start = toMinute(quiet.start);
  const end = toMinute(quiet.end);
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  return inside ? (end - minute + DAY_MINUTES) % DAY_MINUTES || DAY_MINUTES : 0;
}

export class Escalation {
  private readonly tracked = new Map<string, Tracked>();
  private readonly minuteOfDay: (ms: number) => number;

  constructor(private readonly deps: EscalationDeps) {
    this.minuteOfDay = deps.minuteOfDay ?? localMinute;
  }

  /** A new question: its first step is due N minutes after it arrived. */
  track(entry: PendingEntry): void {
    const id = entry.request.id;
    if (this.tracked.has(id)) return;
    const { escalation } = this.deps.settings();
    const after = entry.request.kind === "approval" ? escalation.approvalDevicesAfter : escalation.devicesAfter;
    const tracked: Tracked = { entry, stage: "devices", timer: undefined };
    this.tracked.set(id, tracked);
    this.arm(tracked, entry.receivedAt + after * MINUTE - this.deps.clock.now());
  }

  /** Answered or withdrawn: nothing more is sent for it. */
  settle(id: string): void {
    const tracked = this.tracked.get(id);
    if (!tracked) return;
    this.deps.clock.clearTimeout(tracked.timer);
    this.tracked.delete(id);
  }

  /** What step each question waits for (tests, the log). */
  pending(): { id: string; stage: Stage }[] {
    return [...this.tracked.values()].map((t) => ({ id: t.entry.request.id, stage: t.stage }));
  }

  close(): void {
    for (const id of [...this.tracked.keys()]) this.settle(id);
  }

  private arm(tracked: Tracked, ms: number): void {
    this.deps.clock.clearTimeout(tracked.timer);
    tracked.timer = this.deps.clock.setTimeout(() => this.fire(tracked), Math.max(0, ms));
  }

  private fire(tracked: Tracked): void {
    if (this.tracked.get(tracked.entry.request.id) !== tracked) return;
    const settings = this.deps.settings();
    const idle = settings.holdAtDesk ? this.deps.idleSeconds?.() : undefined;
    if (idle !== undefined && idle < AT_DESK_SECONDS) {
      // At the desk: the desktop's own notification is enough. Look again when it has been idle a minute.
      this.arm(tracked, Math.max(1000, (AT_DESK_SECONDS - idle) * 1000));
      return;
    }
    if (tracked.stage === "devices") {
      tracked.stage = "channels";
      if (this.deps.hasDevices()) {
        this.deps.toDevices(tracked.entry);
        this.arm(tracked, settings.escalation.channelsAfter * MINUTE);
        return;
      }
    }
    const quiet = quietMinutesLeft(settings.quietHours, this.minuteOfDay(this.deps.clock.now()));
    if (quiet > 0) {
      this.arm(tracked, quiet * MINUTE);
      return;
    }
    this.tracked.delete(tracked.entry.request.id);
    this.deps.toChannels(tracked.entry);
  }
}
