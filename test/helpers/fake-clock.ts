// A clock whose time moves only when the test says (advance), firing the timers that fall due in
// order, each at its own time: the Clock that reach/ takes (src/main/reach/types.ts).
import type { Clock } from "../../src/main/reach/types";

interface Timer {
  at: number;
  seq: number;
  run: () => void;
}

export class FakeClock implements Clock {
  private timers = new Map<number, Timer>();
  private seq = 0;

  constructor(private time = Date.UTC(2026, 11, 1, 12, 0, 0)) {}

  now = (): number => this.time;

  setTimeout = (run: () => void, ms: number): unknown => {
    const handle = ++this.seq;
    this.timers.set(handle, { at: this.time + Math.max(0, ms), seq: handle, run });
    return handle;
  };

  clearTimeout = (handle: unknown): void => {
    this.timers.delete(handle as number);
  };

  /** Moves time on by `ms`, running every timer due on the way at its own time. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort(([, a], [, b]) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = next[1].at;
      next[1].run();
    }
    this.time = end;
  }

  advanceMinutes(minutes: number): void {
    this.advance(minutes * 60_000);
  }

  /** Timers still waiting. */
  get waiting(): number {
    return this.timers.size;
  }
}
