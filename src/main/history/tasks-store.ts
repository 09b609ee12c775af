// The tasks the companion follows, kept in History's SQLite file (the `tasks` table, migration 4)
// so they outlive it: the TaskLedger app/core.ts passes the MCP source. The follower's calls never
// wait on, or fail because of, the file: the records live in memory (every live task and the
// recently ended ones), and each change marks its task to be written on the next turn of the
// event loop, in one transaction. A locked file is tried again on short timers; a full disk or an
// unusable file is said once in the log and tried again every few seconds, the latest state of
// each task kept until it is written. An ended task also leaves a History row (tasks-records.ts).
import { isLiveTask, type TaskRecord, type TasksList } from "../../shared/tasks";
import { HistoryBusyError } from "./db";
import type { HistoryStore } from "./store";
import { boundedTask, MAX_LISTED_ENDED, taskFromRow, taskHistoryRow, taskRow, tasksList, type TaskRow } from "./tasks-records";

export interface TasksStoreOptions {
  log?: (line: string) => void;
  now?: () => number;
  /** Applied to every record before it is kept (the secret scrubber, as History's own rows). */
  redact?: <T>(value: T) => T;
  /** Waits between tries while another connection holds the write lock. */
  retryDelaysMs?: readonly number[];
  /** Wait before trying again after any other failure (a full disk, an unusable file). */
  troubleRetryMs?: number;
  /** Ended tasks kept in the table at most; the oldest go first (History keeps them on). */
  maxEndedRows?: number;
}

/** A change of a task, as mcp/tasks/ledger.ts's TaskLedger.updated takes it (history may not import mcp). */
type Patch = Partial<Omit<TaskRecord, "id" | "server" | "taskId" | "generation" | "createdAt">>;

const DEFAULT_RETRY_DELAYS_MS = [10, 30, 100, 300, 1000];
const DEFAULT_TROUBLE_RETRY_MS = 5000;
const DEFAULT_MAX_ENDED_ROWS = 500;
/** Ended tasks waiting to be written to History at most; past it the oldest are dropped (counted). */
const MAX_WAITING_HISTORY = 500;
const COLUMNS = "id, server, tool, agent, task_id, generation, state, status_message, progress, created_at, last_polled_at, ended_at, outcome";

function missingTable(error: unknown): boolean {
  return error instanceof Error && /no such table: tasks/.test(error.message);
}

/** Tasks as the file holds them: the live ones and the most recently ended (read-only use too: the CLI). */
export function readTasks(store: HistoryStore, ended = MAX_LISTED_ENDED): TaskRecord[] {
  try {
    return store.use("tasks read", (prepare) => {
      const live = prepare(`SELECT ${COLUMNS} FROM tasks WHERE ended_at IS NULL`).all() as TaskRow[];
      const last = prepare(`SELECT ${COLUMNS} FROM tasks WHERE ended_at IS NOT NULL ORDER BY ended_at DESC LIMIT ?`).all(ended) as TaskRow[];
      return [...live, ...last].map(taskFromRow).filter((r): r is TaskRecord => r !== undefined);
    });
  } catch (error) {
    // A file from before tasks were kept (read-only, so not migrated) simply has none.
    if (missingTable(error)) return [];
    throw error;
  }
}

/** Main's TaskLedger (mcp/tasks/ledger.ts), by shape: app/core-tasks.ts hands it to the source. */
export class TasksStore {
  private readonly records = new Map<string, TaskRecord>();
  private readonly dirty = new Set<string>();
  private readonly waitingHistory: TaskRecord[] = [];
  /** Tasks the person asked to cancel (tasks:cancel): their History row says "by you". */
  private readonly cancelledByPerson = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private readonly log: (line: string) => void;
  private readonly now: () => number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private scheduled = false;
  private tries = 0;
  private trouble: string | undefined;
  private droppedHistory = 0;
  private closed = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly store: HistoryStore,
    private readonly options: TasksStoreOptions = {},
  ) {
    this.log = options.log ?? (() => {});
    this.now = options.now ?? Date.now;
    try {
      for (const record of readTasks(store)) this.records.set(record.id, record);
    } catch (error) {
      // The follower still works from memory; what it writes is kept once the file opens.
      this.log(`history: could not read the tasks kept (${(error as Error).message}); following new ones in memory until it can.`);
    }
  }

  started(record: TaskRecord): void {
    const bounded = boundedTask(this.redact(record));
    if (!bounded) return void this.log("history: a task without an id, server, tool or start time was not kept.");
    this.records.set(bounded.id, bounded);
    this.changed(bounded.id, undefined);
  }

  updated(id: string, patch: Patch): void {
    const before = this.records.get(id);
    if (!before) return;
    const merged = boundedTask(this.redact({ ...before, ...patch, id: before.id, server: before.server, taskId: before.taskId, generation: before.generation, createdAt: before.createdAt }));
    if (!merged) return;
    if (!isLiveTask(merged.state) && merged.endedAt === undefined) merged.endedAt = this.now();
    this.records.set(id, merged);
    this.changed(id, before);
  }

  live(server?: string): TaskRecord[] {
    return [...this.records.values()].filter((r) => isLiveTask(r.state) && (server === undefined || r.server === server)).map((r) => ({ ...r }));
  }

  get(id: string): TaskRecord | undefined {
    const record = this.records.get(id);
    return record ? { ...record } : undefined;
  }

  /** The Tasks view's list: live first (newest first), then the most recently ended. */
  list(): TasksList {
    return tasksList(this.records.values());
  }

  /** The person asked to cancel task `id`: its History row will say it was them. */
  cancelling(id: string): void {
    if (this.records.has(id)) this.cancelledByPerson.add(id);
  }

  /** Called after every change of a task (the Tasks view's event); returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once every change so far is written, or has failed a try (tests). */
  flush(): Promise<void> {
    return this.dirty.size === 0 && this.waitingHistory.length === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Writes what is waiting, once, without retries (before the History file closes); no writes after. */
  close(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.write(true);
    this.closed = true;
    this.listeners.clear();
  }

  private redact(record: TaskRecord): TaskRecord {
    return this.options.redact ? this.options.redact(record) : record;
  }

  private changed(id: string, before: TaskRecord | undefined): void {
    const record = this.records.get(id)!;
    if (!isLiveTask(record.state) && (before === undefined || isLiveTask(before.state))) this.ended(record);
    this.dirty.add(id);
    this.schedule();
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A broken listener must not stop the follower.
      }
    }
  }

  /** An ended task: its History row waits to be written with its own row. */
  private ended(record: TaskRecord): void {
    if (this.waitingHistory.length >= MAX_WAITING_HISTORY) {
      this.waitingHistory.shift();
      this.droppedHistory++;
    }
    this.waitingHistory.push(record);
  }

  private schedule(delayMs?: number): void {
    if (this.closed || this.timer !== undefined || (this.scheduled && delayMs === undefined)) return;
    if (delayMs === undefined) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        if (this.timer === undefined) this.write(false);
      });
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write(false);
    }, delayMs);
    this.timer.unref?.();
  }

  /** One transaction: every changed task's row, the History rows of the ended ones, the trim. */
  private write(final: boolean): void {
    if (this.closed || (this.dirty.size === 0 && this.waitingHistory.length === 0)) return this.wake();
    const ids = [...this.dirty];
    const history = this.waitingHistory.slice();
    try {
      const keepHistory = this.store.settings().enabled;
      this.store.batch(() => {
        this.store.use("tasks write", (prepare) => {
          const upsert = prepare(`INSERT INTO tasks (${COLUMNS}) VALUES (@id, @server, @tool, @agent, @task_id, @generation, @state, @status_message, @progress, @created_at, @last_polled_at, @ended_at, @outcome)
            ON CONFLICT (id) DO UPDATE SET state = excluded.state, agent = excluded.agent, tool = excluded.tool, status_message = excluded.status_message, progress = excluded.progress,
              last_polled_at = excluded.last_polled_at, ended_at = excluded.ended_at, outcome = excluded.outcome`);
          for (const id of ids) {
            const record = this.records.get(id);
            if (record) upsert.run(taskRow(record));
          }
          if (history.length > 0) {
            const keep = this.options.maxEndedRows ?? DEFAULT_MAX_ENDED_ROWS;
            prepare("DELETE FROM tasks WHERE id IN (SELECT id FROM tasks WHERE ended_at IS NOT NULL ORDER BY ended_at DESC LIMIT -1 OFFSET ?)").run(keep);
          }
        });
        if (keepHistory) for (const record of history) this.store.insert(taskHistoryRow(record, this.cancelledByPerson.has(record.id)));
      });
    } catch (error) {
      return this.failed(error, final);
    }
    for (const id of ids) this.dirty.delete(id);
    this.waitingHistory.splice(0, history.length);
    for (const record of history) this.cancelledByPerson.delete(record.id);
    this.evictWritten();
    this.tries = 0;
    if (this.trouble !== undefined) {
      this.log(`history: keeping tasks again (was: ${this.trouble}${this.droppedHistory ? `; ${this.droppedHistory} ended task(s) not recorded in History` : ""}).`);
      this.trouble = undefined;
      this.droppedHistory = 0;
      this.store.noteRecovered();
    }
    this.wake();
  }

  private failed(error: unknown, final: boolean): void {
    const busy = error instanceof HistoryBusyError;
    const why = busy ? "the database is locked by another connection" : (error as Error).message;
    if (this.trouble === undefined) this.log(`history: could not keep tasks (${why}); they are followed in memory and written once it clears.`);
    this.trouble = why;
    if (final) {
      this.log(`history: ${this.dirty.size} task change(s) could not be written before closing.`);
      return this.wake();
    }
    const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    const delay = busy ? delays[Math.min(this.tries, delays.length - 1)] : (this.options.troubleRetryMs ?? DEFAULT_TROUBLE_RETRY_MS);
    this.tries++;
    this.schedule(delay);
    this.wake();
  }

  /** Ended tasks past the recent ones, once written, leave memory (the file and History keep them). */
  private evictWritten(): void {
    const ended = [...this.records.values()].filter((r) => !isLiveTask(r.state));
    if (ended.length <= MAX_LISTED_ENDED) return;
    ended.sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0));
    for (const old of ended.slice(0, ended.length - MAX_LISTED_ENDED)) if (!this.dirty.has(old.id)) this.records.delete(old.id);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
