// A tool call's watchdog. The SDK's per-request timeout counts wall time, which would kill a call
// whose server is waiting on a person (DESIGN.md §6). This one counts only idle time: it is held
// while a question from that server is pending and starts over when the question is answered.

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

  /** Held while the person has a question from this server; released, the count starts over. */
  hold(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    if (held) this.clear();
    else this.arm();
  }

  stop(): void {
    this.done = true;
    this.clear();
  }

  private arm(): void {
    this.clear();
    if (this.done) return;
    this.timer = setTimeout(() => {
      this.done = true;
      this.onIdle();
    }, this.idleMs);
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
