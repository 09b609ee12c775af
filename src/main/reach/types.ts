// What reach/ needs from the rest of the app, as narrow as it can be: the composition root adapts
// the paired devices (devices/) and the desktop's idle time (desktop/) to these, so this folder
// imports neither.

/** A browser's PushSubscription as the page hands it over (PushSubscription.toJSON()). */
export interface PushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushTarget {
  id: string;
  name: string;
  /** Absent while the device has not allowed notifications. */
  subscription?: PushSubscription;
}

/** The paired devices a notification may go to. */
export interface PushTargets {
  list(): PushTarget[];
  /** The push service says this subscription is gone (404/410): stop sending to it. */
  forget?(id: string): void;
}

/** A clock the tests replace: now, and timers that fire by it. */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => {
    const timer = setTimeout(run, ms);
    timer.unref?.();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The short text a notification carries about one question, already scrubbed. */
export interface Notice {
  id: string;
  title: string;
  body: string;
  /** The question on the paired page, when the device listener is on. */
  url?: string;
  /** An approval: the only kind ntfy may offer Allow/Deny for. */
  approval: boolean;
}
