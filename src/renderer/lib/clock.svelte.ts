// The page's clock: "2 min ago", "expires in 40 s" and how long a rule's note stays all read `now`,
// which ticks once a second while the page runs.
export class Clock {
  now = $state(Date.now());

  /** Ticks `now` once a second; returns the stop. */
  start(): () => void {
    const tick = setInterval(() => (this.now = Date.now()), 1_000);
    return () => clearInterval(tick);
  }

  /** Sets `now` to this moment at once (a note just made must count from now) and returns it. */
  touch(): number {
    const at = Date.now();
    this.now = at;
    return at;
  }
}
