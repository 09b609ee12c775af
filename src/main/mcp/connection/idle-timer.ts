// A tool call's watchdog. The SDK's per-request timeout counts wall time, which would kill a call
// whose server is waiting on a person. This one counts only idle time: it is held
// while a question from that server is pending and starts over when the question is answered.

// One Node timer per call, refreshed rather than cleared and created again: a question held and
// released per elicitation, and each progress notification, only move its deadline.
export class IdleTimer {
  private timer?: ReturnType<typeof setTimeout>;
  private held = false;
  private done = false;

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {
    this.arm();
  }

  /** Activity (a progress notification): start the idle count again. */
  touch(): void {
    if (!this.held) this.arm();
  }

  /**
   * Held while the person has a question from this server; released, the count starts over.
   * While held the timer may still run out: it then does nothing, and release re-arms it.
   */
  hold(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    if (!held) this.arm();
  }

  stop(): void {
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (this.done) return;
    // refresh() restarts the count from now, also for a timer that already ran out.
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(() => this.expire(), this.idleMs);
  }

  private expire(): void {
    if (this.held || this.done) return;
    this.done = true;
    this.onIdle();
  }
}
