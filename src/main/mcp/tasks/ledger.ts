// Where the tasks the companion follows are kept so they outlive it (app/core.ts passes
// History's store: one SQLite file). The follower writes every change of a task here first,
// then acts on it; after a restart it resumes what `live()` returns.
import { isLiveTask, type TaskRecord } from "../../../shared/tasks";

export interface TaskLedger {
  /** A task the companion now follows (state working or input_required). */
  started(record: TaskRecord): void;
  /** A change of a followed task: status, message, progress, last polled, outcome. */
  updated(id: string, patch: Partial<Omit<TaskRecord, "id" | "server" | "taskId" | "generation" | "createdAt">>): void;
  /** Tasks not yet ended, optionally of one server: resumed after a restart or a reconnect. */
  live(server?: string): TaskRecord[];
  /** One task by the companion's id. */
  get(id: string): TaskRecord | undefined;
}

/** A ledger that keeps tasks in memory only (no History file: tests, `--no-history`). */
export function memoryLedger(): TaskLedger & { all(): TaskRecord[] } {
  const records = new Map<string, TaskRecord>();
  return {
    started: (record) => void records.set(record.id, { ...record }),
    updated: (id, patch) => {
      const record = records.get(id);
      if (record) records.set(id, { ...record, ...patch });
    },
    live: (server) => [...records.values()].filter((r) => isLiveTask(r.state) && (server === undefined || r.server === server)),
    get: (id) => records.get(id),
    all: () => [...records.values()],
  };
}
