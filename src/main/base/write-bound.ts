// One rule for output that a peer must read: a stdio server's stdin, an agent's event stream.
// Node queues whatever is written to a stream whose reader stopped, without end; a peer that
// never reads would make the companion's memory grow as fast as it writes. Here a stream may hold
// at most `maxQueuedBytes` before one more message is queued (so at most that plus one message
// waits), and once full it must drain within `drainDeadlineMs`. Past either, `onStall` is told
// once, and the owner drops the peer with the reason.
import type { Writable } from "node:stream";

export interface WriteBoundOptions {
  maxQueuedBytes: number;
  drainDeadlineMs: number;
  /** Called once, the first time the peer is past a bound; `queuedBytes` is what waits then. */
  onStall(stall: { queuedBytes: number; why: "bytes" | "deadline" }): void;
}

/** The stream's length as the peer has left it: ServerResponse counts its socket's queue too. */
function queued(stream: Pick<Writable, "writableLength">): number {
  return stream.writableLength;
}

export class WriteBound {
  private timer?: NodeJS.Timeout;
  private stalledAt?: number;

  constructor(
    private readonly stream: Writable,
    private readonly options: WriteBoundOptions,
  ) {
    stream.on("drain", () => this.clearTimer());
    stream.once("close", () => this.clearTimer());
  }

  /** Bytes waiting for the peer now. */
  queuedBytes(): number {
    return queued(this.stream);
  }

  /** Whether the peer was found past a bound (it is being dropped). */
  stalled(): boolean {
    return this.stalledAt !== undefined;
  }

  /** Before one more message is written: false (and onStall, once) when the peer is past the bound. */
  admit(): boolean {
    if (this.stalledAt !== undefined) return false;
    const waiting = queued(this.stream);
    if (waiting > this.options.maxQueuedBytes) {
      this.stall(waiting, "bytes");
      return false;
    }
    return true;
  }

  /** After a write: when it filled the stream (`write()` returned false), the drain deadline runs. */
  wrote(accepted: boolean): void {
    if (accepted || this.timer || this.stalledAt !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (queued(this.stream) > 0) this.stall(queued(this.stream), "deadline");
    }, this.options.drainDeadlineMs);
    this.timer.unref();
  }

  private stall(queuedBytes: number, why: "bytes" | "deadline"): void {
    if (this.stalledAt !== undefined) return;
    this.stalledAt = Date.now();
    this.clearTimer();
    this.options.onStall({ queuedBytes, why });
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** "3.2 MiB": the size people read in a stop reason. */
export function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
