// At most N tasks of one kind run at once; the rest wait their turn in arrival order. Used where a
// config can name thousands of things to start at once (mcp/source.ts: server connects), so that
// starting them never floods the event loop with sockets, handshakes and their callbacks.

export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a concurrency limit must be a whole number of at least 1, not ${max}`);
  }

  /** Tasks waiting for a free slot. */
  get queued(): number {
    return this.waiting.length;
  }

  get active(): number {
    return this.running;
  }

  /** Runs `task` when a slot is free; its result or rejection is passed through. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finished task hands its slot straight to the next in line, so no newcomer slips past it.
    if (this.running >= this.max) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      // Tasks that end at once must not start the whole queue in one turn of the event loop.
      await new Promise<void>((resolve) => setImmediate(resolve));
    } else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
