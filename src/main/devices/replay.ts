// Every request a device makes carries a fresh nonce and the time it was made, next to its key
// (proof.ts). A request whose time is more than a minute off, or whose nonce was seen within
// that minute, is refused: a request copied off the wire, a log or a proxy cannot be sent again.
// Nonces are kept only as long as their time would still pass, and only so many: past the bound,
// new requests are refused rather than old nonces forgotten early.

export const REPLAY_WINDOW_MS = 60_000;
const MAX_NONCES = 20_000;
export const NONCE = /^[A-Za-z0-9_-]{22,43}$/;

export class ReplayGuard {
  private readonly seen = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** True when (time, nonce) may pass; records the nonce. */
  fresh(time: number, nonce: string): boolean {
    const now = this.now();
    if (!Number.isSafeInteger(time) || Math.abs(now - time) > REPLAY_WINDOW_MS || !NONCE.test(nonce)) return false;
    this.sweep(now);
    if (this.seen.has(nonce) || this.seen.size >= MAX_NONCES) return false;
    this.seen.set(nonce, time + REPLAY_WINDOW_MS);
    return true;
  }

  private sweep(now: number): void {
    // Insertion order is close to time order; stop at the first nonce still in its window.
    for (const [nonce, until] of this.seen) {
      if (until > now) break;
      this.seen.delete(nonce);
    }
  }
}
