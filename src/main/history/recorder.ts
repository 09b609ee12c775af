// Records what happens in the Inbox into the history store. It listens to Inbox events and never
// throws back into them: every write is queued and tried at once (a few tens of microseconds); a
// locked database is retried a few times on timers (never blocking the event loop), then the
// record is dropped with one log line; a corrupt file is moved aside by the store. Writes run on
// the next turn of the event loop, so answering a question never waits on, or fails because of,
// history.
import type { Answer, InboxEvent, PendingEntry, Request } from "../../shared/types";
import { sourceKey, type Inbox } from "../inbox";
import { HISTORY_REFUSED_ROWS_PER_MINUTE, HISTORY_REFUSED_ROWS_PER_SOURCE_PER_MINUTE, MAX_PROMPT_LENGTH } from "../../shared/limits";
import { maskAnswer, reduceUrl, reduceUrlsIn } from "./mask";
import { fieldsAsked } from "../../forms/fields-asked";
import { HistoryBusyError, HistoryUnavailableError, type HistoryStore, type NewQuestion, type Settlement } from "./store";
import { HISTORY_BY, type HistoryBy, type HistoryStatus } from "./types";

export interface HistoryOptions {
  log?: (line: string) => void;
  now?: () => number;
  /**
   * Who settled question `id` when the event does not say: the hook where rules answer. The
   * Inbox may later carry `by` on its "answered" event itself; that wins. Default: the person.
   */
  answeredBy?: (id: string, answer: Answer) => HistoryBy | undefined;
  /** Waits between tries while another connection holds the write lock; then the record is dropped. */
  retryDelaysMs?: readonly number[];
  /** Writes waiting behind a lock at most; past it new records are dropped at once. */
  maxQueued?: number;
  /** How often retention runs after the sweep at start. */
  sweepEveryMs?: number;
  /** Refusals recorded one by one per asker per minute (HISTORY_REFUSED_ROWS_PER_SOURCE_PER_MINUTE). */
  refusedRowsPerSource?: number;
  /** Rows of refusals per minute over all askers (HISTORY_REFUSED_ROWS_PER_MINUTE). */
  refusedRowsPerMinute?: number;
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

const DEFAULT_RETRY_DELAYS_MS = [10, 30, 100, 300];
const DEFAULT_MAX_QUEUED = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Open {
  question: NewQuestion;
  schema: unknown;
}

/** Refusals are counted per asker per minute of the clock. */
const MINUTE_MS = 60_000;
/** The count row of the minute's refusals past the all-askers cap. */
const EVERYONE = "\u0000everyone";

/** One asker's questions this minute that got a row of their own. */
interface Tally {
  rows: number;
}
/** A question withdrawn or expired this soon after arriving was never in front of the person. */
const UNSEEN_MS = 2000;

interface Write {
  what: string;
  run: () => void;
  tries: number;
}

/** The question as history keeps it: prompt and URL without query tokens, fields without values. */
function questionRecord(request: Request, source: PendingEntry["source"], receivedAt: number): NewQuestion {
  const question: NewQuestion = {
    requestId: String(request.id).slice(0, 512),
    kind: String(request.kind).slice(0, 100),
    // Cut before reducing too: a refused question's prompt has not been bounded by anyone.
    prompt: reduceUrlsIn(String(request.prompt ?? "").slice(0, MAX_PROMPT_LENGTH * 2)).slice(0, MAX_PROMPT_LENGTH),
    fields: request.kind === "input" ? fieldsAsked(request.data?.schema) : [],
    outcome: "pending",
    receivedAt,
  };
  if (source.server !== undefined) question.server = String(source.server).slice(0, 200);
  if (source.agent !== undefined) question.agent = String(source.agent).slice(0, 200);
  const url = typeof request.url === "string" ? reduceUrl(request.url) : undefined;
  if (url !== undefined) question.url = url;
  return question;
}

function answerSettlement(answer: Answer, schema: unknown, by: HistoryBy, settledAt: number): Settlement {
  if (answer.ok) {
    // URL mode carries no data: "accepted" is the whole of it (the person consented to open it).
    return answer.data ? { outcome: "accepted", by, answer: maskAnswer(answer.data, schema), settledAt } : { outcome: "accepted", by, settledAt };
  }
  const reason = answer.reason ?? "cancelled";
  const outcome = reason === "declined" ? "declined" : reason === "expired" ? "expired" : "cancelled";
  return { outcome, by, reason: reason.slice(0, 1000), settledAt };
}

function withdrawSettlement(event: Extract<InboxEvent, { type: "withdrawn" }>, settledAt: number): Settlement {
  const outcome = event.reason === "expired" ? "expired" : event.reason === "closed" ? "cancelled" : "withdrawn";
  return { outcome, by: "companion", reason: (event.message ?? event.reason).slice(0, 1000), settledAt };
}

function eventBy(event: InboxEvent): HistoryBy | undefined {
  const by = (event as { by?: unknown }).by;
  return typeof by === "string" && (HISTORY_BY as readonly string[]).includes(by) ? (by as HistoryBy) : undefined;
}

export function attachHistory(inbox: Inbox, store: HistoryStore, options: HistoryOptions = {}): HistoryRecorder {
  const log = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
  const open = new Map<string, Open>();
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

  /** Writes run in one transaction per turn of the event loop: a flood costs one commit per batch. */
  const BATCH = 500;
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

  const note = (source: { server?: string; agent?: string }) => {
    const key = sourceKey(source);
    if (!touched.has(key)) touched.set(key, source.server !== undefined ? { server: String(source.server).slice(0, 200) } : source.agent !== undefined ? { agent: String(source.agent).slice(0, 200) } : {});
  };

  const enqueue = (what: string, run: () => void) => {
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
  };

  const settle = (id: string, settlement: Settlement) => {
    const entry = open.get(id);
    if (!entry) return; // not recorded (history was off when it arrived)
    open.delete(id);
    enqueue("settle", () => {
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
        note(source);
        enqueue("insert", () => void store.insert(question));
        return;
      }
      case "answered": {
        const entry = open.get(event.id);
        if (!entry) return;
        const by = eventBy(event) ?? options.answeredBy?.(event.id, event.answer) ?? "person";
        settle(event.id, answerSettlement(event.answer, entry.schema, by, now()));
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

  // A flood of refusals is counted, not written row by row: the first few per asker per minute
  // are recorded whole, then one row per asker per minute counts the rest ("refused 480 times"),
  // and past a cap over all askers (names are the caller's choice) one row counts everyone's.
  const perSource = options.refusedRowsPerSource ?? HISTORY_REFUSED_ROWS_PER_SOURCE_PER_MINUTE;
  const perMinute = options.refusedRowsPerMinute ?? HISTORY_REFUSED_ROWS_PER_MINUTE;
  let minute = -1;
  let rowsThisMinute = 0;
  const tallies = new Map<string, Tally>();
  const counts = new Map<string, { rowId?: number }>();
  /**
   * Whether a question that was never shown gets a row of its own this minute (true), or is
   * counted into its asker's count row (or everyone's, past the minute's rows) of that outcome.
   */
  const keepWhole = (source: PendingEntry["source"], request: Request, outcome: Settlement["outcome"], reason: string, at: number): boolean => {
    const thisMinute = Math.floor(at / MINUTE_MS);
    if (thisMinute !== minute) {
      minute = thisMinute;
      rowsThisMinute = 0;
      tallies.clear();
      counts.clear();
    }
    const key = sourceKey(source);
    let tally = tallies.get(key);
    if (!tally && rowsThisMinute < perMinute) tallies.set(key, (tally = { rows: 0 }));
    if (tally && tally.rows < perSource) {
      tally.rows++;
      rowsThisMinute++;
      note(source);
      return true;
    }
    // Counted: into this asker's count row, or everyone's once the minute's rows are used up.
    let countKey = tally ? key : EVERYONE;
    if (countKey !== EVERYONE && !counts.has(`${key}\n${outcome}`) && rowsThisMinute >= perMinute) countKey = EVERYONE;
    const holder = counts.get(`${countKey}\n${outcome}`);
    if (holder) {
      enqueue("counted again", () => {
        if (holder.rowId !== undefined) store.repeat(holder.rowId, at);
      });
      return false;
    }
    const made: { rowId?: number } = {};
    counts.set(`${countKey}\n${outcome}`, made);
    rowsThisMinute++;
    const who = countKey === EVERYONE ? "several askers" : (source.server ?? source.agent ?? "agent");
    const verb = outcome === "refused" ? "refused" : outcome === "expired" ? "expired before they were answered" : "withdrawn before they were answered";
    const question = questionRecord({ ...request, prompt: `More questions ${verb} from ${who} within this minute` }, countKey === EVERYONE ? {} : source, at);
    enqueue("counted", () => {
      made.rowId = store.insert({ ...question, fields: [], outcome, by: "companion", reason, settledAt: at });
    });
    return false;
  };

  const refused = (event: Extract<InboxEvent, { type: "refused" }>, at: number) => {
    const reason = event.reason.slice(0, 1000);
    if (!keepWhole(event.source, event.request, "refused", reason, at)) return;
    const question = questionRecord(event.request, event.source, at);
    enqueue("refused", () => void store.insert({ ...question, outcome: "refused", by: "companion", reason, settledAt: at }));
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
    enqueue("unseen", () => void store.forgetPending(entry.question.requestId));
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
    flush: () => (queue.length === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    stop() {
      if (stopped) return;
      stopped = true;
      unsubscribe();
      clearInterval(sweepTimer);
      if (retryTimer) clearTimeout(retryTimer);
      // What is queued (the questions the shutdown withdrew) is written now, once, without retries.
      pump();
    },
  };
}
