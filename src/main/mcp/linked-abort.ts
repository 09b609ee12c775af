// One AbortController that follows several signals. Node's AbortSignal.any costs tens of
// microseconds per call (weak refs, GC pressure) — too much on the per-question hot path —
// and keeps its sources referenced until collection; this one detaches when disposed.

export class LinkedAbort {
  readonly controller = new AbortController();
  private readonly links: [AbortSignal, () => void][] = [];

  constructor(sources: (AbortSignal | undefined)[]) {
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
}
