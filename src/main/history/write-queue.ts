// The recorder's writes: queued and run on the next turn of the event loop, in one transaction per
// batch, so answering a question never waits on, or fails because of, history. A locked database
// is retried a few times on timers (never blocking the event loop), then the record is dropped
// with one log line; after writes, at most once a second, the askers written to and the whole
// file are kept within their budgets.
import { sourceKey } from "../inbox";
import { HistoryBusyError } from "./db";
import type { HistoryStore } from "./store";

export interface WriteQueueOptions {
  log: (line: string) => void;
  now: () => number;
  /** Waits between tries while another connection holds the write lock; then the record is dropped. */
  retryDelaysMs?: readonly number[];
  /** Writes waiting behind a lock at most; past it new records are dropped at once. */
  maxQueued?: number;
}

export interface WriteQueue {
  /** Queues a write; ignored once stopped, dropped (and counted) when the queue is full. */
  enqueue(what: string, run: () => void): void;
  /** An asker written to: its share of the budget is checked after the next writes. */
  touch(source: { server?: string; agent?: string }): void;
  /** Resolves once every queued write has been written or dropped. */
  flush(): Promise<void>;
  /** Takes no more writes and writes what is queued now, once, without retries. */
  stop(): void;
}

const DEFAULT_RETRY_DELAYS_MS = [10, 30, 100, 300];
const DEFAULT_MAX_QUEUED = 1000;
/** Writes run in one transaction per turn of the event loop: a flood costs one commit per batch. */
const BATCH = 500;

interface Write {
  what: string;
  run: () => void;
  tries: number;
}

export function createWriteQueue(store: HistoryStore, options: WriteQueueOptions): WriteQueue {
  const { log, now } = options;
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
  const queue: Write[] = [];
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let trouble: string | undefined;
  let droppedInTrouble = 0;
  let waiters: (() => void)[] = [];
  let stopped = false;
  let scheduled = false;

  const drop = (write: Write, why: string) => {
    store.noteDropped(why);
    droppedInTrouble++;
    // One line when trouble starts, one when it ends; not one per record.
    if (trouble === undefined) log(`history: could not record (${why}); answering is unaffected, records are dropped until it clears.`);
    trouble = why;
  };

  let budgetCheckedAt = -Infinity;
  const touched = new Map<string, { server?: string; agent?: string }>();
  const pump = () => {
    retryTimer = undefined;
    scheduled = false;
    while (queue.length > 0) {
      const batch = queue.slice(0, BATCH);
      let done = 0;
      try {
        store.batch(() => {
          for (const write of batch) {
            try {
              write.run();
            } catch (error) {
              if (error instanceof HistoryBusyError) throw error;
              drop(write, (error as Error).message);
            }
            done++;
          }
        });
        if (trouble !== undefined) {
          log(`history: recording again (${droppedInTrouble} record(s) dropped while ${trouble}).`);
          trouble = undefined;
          droppedInTrouble = 0;
          store.noteRecovered();
        }
      } catch (error) {
        const first = batch[0];
        if (error instanceof HistoryBusyError && first.tries < delays.length && !stopped) {
          retryTimer = setTimeout(pump, delays[first.tries++]);
          retryTimer.unref?.();
          return;
        }
        // The whole batch is lost (locked too long, or the file is unusable): each write counted.
        for (const write of batch.slice(done)) drop(write, error instanceof HistoryBusyError ? "the database is locked by another connection" : (error as Error).message);
        done = batch.length;
      }
      queue.splice(0, Math.max(done, 1));
    }
    keepBudget();
    const resolved = waiters;
    waiters = [];
    for (const resolve of resolved) resolve();
  };

  /** After writes, at most once a second: the askers written to and the whole file kept in budget. */
  const keepBudget = () => {
    const at = now();
    if (touched.size === 0 || at - budgetCheckedAt < 1000) return;
    budgetCheckedAt = at;
    const sources = [...touched.values()];
    touched.clear();
    try {
      store.enforceBudget(sources);
    } catch (error) {
      log(`history: could not keep history within its budget: ${(error as Error).message}`);
    }
  };

  return {
    enqueue(what, run) {
      if (stopped) return;
      const write = { what, run, tries: 0 };
      if (queue.length >= maxQueued) {
        drop(write, `${queue.length} records are already waiting on the database`);
        return;
      }
      queue.push(write);
      // Written on the next turn of the event loop: the answer (and every view) goes out first.
      if (retryTimer === undefined && !scheduled) {
        scheduled = true;
        setImmediate(pump);
      }
    },
    touch(source) {
      const key = sourceKey(source);
      if (!touched.has(key)) touched.set(key, source.server !== undefined ? { server: String(source.server).slice(0, 200) } : source.agent !== undefined ? { agent: String(source.agent).slice(0, 200) } : {});
    },
    flush: () => (queue.length === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      pump();
    },
  };
}
