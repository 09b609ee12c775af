// Records what happens in the Inbox into the history store. It listens to Inbox events and never
// throws back into them: every write is queued (write-queue.ts) and runs on the next turn of the
// event loop, so answering a question never waits on, or fails because of, history; a corrupt
// file is moved aside by the store. Floods of refusals are counted, not written (flood.ts).
import type { Answer, InboxEvent } from "../../shared/types";
import type { Inbox } from "../inbox";
import { HistoryUnavailableError } from "./db";
import { createFloodCounter, type FloodOptions } from "./flood";
import { answerSettlement, eventBy, questionRecord, withdrawSettlement } from "./records";
import type { HistoryStore, NewQuestion, Settlement } from "./store";
import type { HistoryBy, HistoryStatus } from "../../shared/history";
import { createWriteQueue, type WriteQueueOptions } from "./write-queue";

export interface HistoryOptions extends FloodOptions, Pick<WriteQueueOptions, "retryDelaysMs" | "maxQueued"> {
  log?: (line: string) => void;
  now?: () => number;
  /**
   * Who settled question `id` when the event does not say: the hook where rules answer. The
   * Inbox may later carry `by` on its "answered" event itself; that wins. Default: the person.
   */
  answeredBy?: (id: string, answer: Answer) => HistoryBy | undefined;
  /** The paired device question `id` was answered on (its name), asked once as it is answered. */
  answeredOn?: (id: string) => string | undefined;
  /** How often retention runs after the sweep at start. */
  sweepEveryMs?: number;
}

export interface HistoryRecorder {
  status(): HistoryStatus;
  /** Runs retention now (also at start and daily); returns rows removed. */
  sweep(): number;
  /** Resolves once every queued write has been written or dropped (tests). */
  flush(): Promise<void>;
  /** Stops listening and writes what is queued; call before closing the store. */
  stop(): void;
}

const DAY_MS = 24 * 60 * 60 * 1000;

interface Open {
  question: NewQuestion;
  schema: unknown;
}

/** A question withdrawn or expired this soon after arriving was never in front of the person. */
const UNSEEN_MS = 2000;

export function attachHistory(inbox: Inbox, store: HistoryStore, options: HistoryOptions = {}): HistoryRecorder {
  const log = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  const writes = createWriteQueue(store, { log, now, retryDelaysMs: options.retryDelaysMs, maxQueued: options.maxQueued });
  const keepWhole = createFloodCounter(store, writes, options);
  const open = new Map<string, Open>();
  let stopped = false;

  const settle = (id: string, settlement: Settlement) => {
    const entry = open.get(id);
    if (!entry) return; // not recorded (history was off when it arrived)
    open.delete(id);
    writes.enqueue("settle", () => {
      // Its insert may have been dropped behind a lock: then the whole record goes in now.
      if (!store.settle(id, settlement)) store.insert({ ...entry.question, ...settlement });
    });
  };

  const onEvent = (event: InboxEvent) => {
    switch (event.type) {
      case "added": {
        if (!store.settings().enabled) return;
        const { request, source, receivedAt } = event.entry;
        const question = questionRecord(request, source, receivedAt);
        open.set(request.id, { question, schema: request.kind === "input" ? request.data?.schema : undefined });
        writes.touch(source);
        writes.enqueue("insert", () => void store.insert(question));
        return;
      }
      case "answered": {
        const entry = open.get(event.id);
        if (!entry) return;
        const by = eventBy(event) ?? options.answeredBy?.(event.id, event.answer) ?? "person";
        const device = by === "person" ? options.answeredOn?.(event.id) : undefined;
        settle(event.id, { ...answerSettlement(event.answer, entry.schema, by, now()), ...(device ? { device } : {}) });
        return;
      }
      case "withdrawn":
        if (unseen(event, now())) return;
        settle(event.id, withdrawSettlement(event, now()));
        return;
      case "refused": {
        if (!store.settings().enabled) return;
        refused(event, now());
        return;
      }
    }
  };

  const refused = (event: Extract<InboxEvent, { type: "refused" }>, at: number) => {
    const reason = event.reason.slice(0, 1000);
    if (!keepWhole(event.source, event.request, "refused", reason, at)) return;
    const question = questionRecord(event.request, event.source, at);
    writes.enqueue("refused", () => void store.insert({ ...question, outcome: "refused", by: "companion", reason, settledAt: at }));
  };

  /**
   * A question withdrawn (or expired) within moments of arriving was never seen by the person:
   * past the rate, its row goes and it is counted instead, as a refusal is.
   */
  const unseen = (event: Extract<InboxEvent, { type: "withdrawn" }>, at: number): boolean => {
    const entry = open.get(event.id);
    if (!entry || at - entry.question.receivedAt > UNSEEN_MS) return false;
    const settlement = withdrawSettlement(event, at);
    const source = { ...(entry.question.server !== undefined ? { server: entry.question.server } : {}), ...(entry.question.agent !== undefined ? { agent: entry.question.agent } : {}) };
    const request = { id: entry.question.requestId, kind: entry.question.kind, prompt: "" };
    if (keepWhole(source, request, settlement.outcome, settlement.reason ?? "", at)) return false;
    open.delete(event.id);
    writes.enqueue("unseen", () => void store.forgetPending(entry.question.requestId));
    return true;
  };

  // The store says once why it is unavailable (and again only when the reason changes); the
  // sweep and the start-up check would otherwise repeat it in other words.
  const logFailure = (what: string, error: unknown) => {
    if (!(error instanceof HistoryUnavailableError)) log(`history: ${what}${(error as Error).message}`);
  };

  const sweep = (): number => {
    try {
      const removed = store.sweep(store.settings().days);
      if (removed > 0) log(`history: removed ${removed} record(s) older than ${store.settings().days} days.`);
      return removed;
    } catch (error) {
      logFailure("retention sweep failed: ", error);
      return 0;
    }
  };

  try {
    const interrupted = store.closeInterrupted();
    if (interrupted > 0) log(`history: ${interrupted} question(s) were still open when the companion last stopped.`);
  } catch (error) {
    logFailure("", error);
  }
  sweep();
  const sweepTimer = setInterval(sweep, options.sweepEveryMs ?? DAY_MS);
  sweepTimer.unref?.();
  const unsubscribe = inbox.on((event) => {
    try {
      onEvent(event);
    } catch (error) {
      log(`history: ${(error as Error).message}`);
    }
  });

  return {
    status: () => store.status(),
    sweep,
    flush: () => writes.flush(),
    stop() {
      if (stopped) return;
      stopped = true;
      unsubscribe();
      clearInterval(sweepTimer);
      // What is queued (the questions the shutdown withdrew) is written now, once, without retries.
      writes.stop();
    },
  };
}
