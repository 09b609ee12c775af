// Progress heartbeats: while a question raised during an agent's call waits on the person, the
// call's progress token gets a notification every few seconds saying so. MCP clients give up on a
// request after a timeout of their own (60 s by default in the SDKs); one that resets that timeout
// on progress (the SDK's `resetTimeoutOnProgress`) then keeps waiting as long as the person takes.
//
// The MCP specification asks that progress increase with each notification of a token, total or
// not. A heartbeat is not the server's progress, so it moves the value as little as it can: a
// millionth past the last value sent, so the server's own next step (after the person answered)
// still comes after it; a server value that heartbeats went past is raised just past them.

/** One progress notification's params, without the token. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Every 5 s: well inside the shortest timeouts agents are seen to set (10 s and up; 60 s by
 * default), so one late beat on a loaded machine still lands in time, and cheap (a small event
 * every 5 s per waiting call, 720 in the hour the companion waits at most).
 */
export const HEARTBEAT_MS = 5_000;

export interface ProgressRelay {
  /** The server's progress for this call, passed on. */
  progress(progress: Progress): void;
  /** ExecuteContext.onquestion: a question of this call opened or ended. */
  question(open: boolean): void;
  /** The call is over (or no longer answers on this request): no more heartbeats. */
  stop(): void;
}

export interface RelayOptions {
  everyMs?: number;
  now?: () => number;
}

/** The smallest step past `value` that still reads as a change. */
function after(value: number): number {
  return value + Math.max(1, Math.abs(value)) * 1e-6;
}

/** How long, in words a person reads at a glance ("45 s", "2 min 5 s"). */
export function waitedWords(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

export function heartbeatMessage(waitedMs: number): string {
  const base = "Waiting for you to answer the question in Toolnexus Companion";
  return waitedMs < 1000 ? `${base}.` : `${base} (${waitedWords(waitedMs)} so far).`;
}

/**
 * The progress of one call as the agent gets it: the server's, and heartbeats while questions are
 * open. `send` takes each notification's params (without the token), in order.
 */
export function progressRelay(send: (progress: Progress) => void, options: RelayOptions = {}): ProgressRelay {
  const everyMs = options.everyMs ?? HEARTBEAT_MS;
  const now = options.now ?? Date.now;
  let last: number | undefined;
  /** `last` is a heartbeat's (or a server value raised past one), not the server's own. */
  let ours = false;
  let open = 0;
  let since = 0;
  let lastBeat = -Infinity;
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;

  const beat = () => {
    lastBeat = now();
    // From nothing, just past 0: a server that starts reporting after the question keeps its values.
    last = after(last ?? 0);
    ours = true;
    send({ progress: last, message: heartbeatMessage(lastBeat - since) });
  };
  const quiet = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  return {
    progress(progress) {
      if (stopped) return;
      // Only a value heartbeats went past is raised: the server's own sequence is passed on as it is.
      const raise = ours && last !== undefined && !(progress.progress > last);
      last = raise ? after(last!) : progress.progress;
      ours = raise;
      send({ ...progress, progress: last });
    },
    question(isOpen) {
      open = Math.max(0, open + (isOpen ? 1 : -1));
      if (stopped) return;
      if (open === 0) return quiet();
      if (timer !== undefined) return;
      since = now();
      // At once, so the agent (and the person watching it) knows why the call waits; never more
      // often than every `everyMs` when questions come and go.
      if (now() - lastBeat >= everyMs) beat();
      timer = setInterval(beat, everyMs);
      timer.unref?.();
    },
    stop() {
      stopped = true;
      quiet();
    },
  };
}

type Notify = (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;

/**
 * One call's notifications to its agent, sent in order, and `done()` once all sent so far are
 * written: the result closes the call's stream, so a notification still queued behind it would be
 * lost. A failed send is the agent's stream closing; the call goes on regardless.
 */
export class OrderedSends {
  private sent: Promise<void> = Promise.resolve();

  constructor(private readonly notify: Notify) {}

  send(notification: { method: string; params: Record<string, unknown> }): void {
    this.sent = this.sent.then(() => this.notify(notification)).catch(() => {});
  }

  done(): Promise<void> {
    return this.sent;
  }
}

/** The call's progress relay when it sent a progress token and can be notified, else undefined. */
export function relayToAgent(progressToken: string | number | undefined, sends: OrderedSends | undefined): ProgressRelay | undefined {
  if (progressToken === undefined || !sends) return undefined;
  return progressRelay((progress) => sends.send({ method: "notifications/progress", params: { progressToken, ...progress } }));
}
