// How many questions may be passed on in a while: an agent that floods the Inbox must not flood
// the person's phone, chat and mailbox too. Past the budget a question stays in the Inbox only
// (and the log says so); answering and withdrawing are never limited.
import type { Clock } from "./types";

/** To the channels: ten questions in ten minutes is more than a person reads away from the desk. */
export const CHANNEL_BUDGET = { max: 10, windowMs: 10 * 60_000 };
/** To paired devices: a notification per question, replaced by tag, so a few more. */
export const PUSH_BUDGET = { max: 30, windowMs: 10 * 60_000 };

export class SendBudget {
  private readonly sent: number[] = [];

  constructor(
    private readonly clock: Pick<Clock, "now">,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Spends one send if the budget allows it. */
  take(): boolean {
    const now = this.clock.now();
    while (this.sent.length && this.sent[0] <= now - this.windowMs) this.sent.shift();
    if (this.sent.length >= this.max) return false;
    this.sent.push(now);
    return true;
  }
}
