// One AbortController that follows several signals. Node's AbortSignal.any costs tens of
// microseconds per call (weak refs, GC pressure) — too much on the per-question hot path —
// and keeps its sources referenced until collection; this one detaches when disposed.
//
// Creating an AbortSignal is itself the costly part on Node 20 (12–17 µs each, measured; the
// controller alone is cheap, its signal is made on first read), and a question or call is only
// aborted on a cancel. So an owner that knows when every reader of the signal is done may
// `release()` it: a controller whose signal was never aborted and has no listener left is kept
// for the next LinkedAbort instead of being thrown away. A signal that was aborted, or that
// someone still listens to, is never reused.
import { getEventListeners } from "node:events";

/** Spare controllers, never aborted and listened to by nobody. Bounded: the peak of open questions and calls rarely passes it. */
const spare: AbortController[] = [];
const MAX_SPARE = 64;

export class LinkedAbort {
  readonly controller: AbortController;
  private readonly links: [AbortSignal, () => void][] = [];

  constructor(sources: (AbortSignal | undefined)[]) {
    this.controller = spare.pop() ?? new AbortController();
    for (const source of sources) {
      if (!source) continue;
      if (source.aborted) {
        this.controller.abort(source.reason);
        break;
      }
      const follow = () => this.abort(source.reason);
      source.addEventListener("abort", follow, { once: true });
      this.links.push([source, follow]);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    this.dispose();
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  /** Stops following the sources; the signal keeps whatever state it has. */
  dispose(): void {
    for (const [source, follow] of this.links.splice(0)) source.removeEventListener("abort", follow);
  }

  /**
   * Disposes, and hands the controller to a later LinkedAbort when its signal was never aborted
   * and nobody listens to it any more. Only for an owner whose signal's readers have all finished
   * (they may not read it again): after this the signal may belong to another question or call.
   */
  release(): void {
    this.dispose();
    const signal = this.controller.signal;
    if (signal.aborted || spare.length >= MAX_SPARE || getEventListeners(signal, "abort").length > 0) return;
    spare.push(this.controller);
  }
}
