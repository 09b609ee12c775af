// The core's followed tasks: where they are kept (History's file when there is one, else memory
// for this session), the tasks:changed event to the views, and the Tasks channels. The MCP source
// gets the ledger as LoadOptions.tasks and follows the tasks itself; this only keeps and shows them.
import { isLiveTask, type TaskRecord, type TasksList } from "../../shared/tasks";
import { SERVERS_EVENT_INTERVAL_MS } from "../../shared/limits";
import type { HistoryHandle } from "../history";
import { TasksStore } from "../history/tasks-store";
import { MAX_LISTED_ENDED, tasksList } from "../history/tasks-records";
import { createTasksHandlers, type TasksHandlers } from "../history/tasks-handlers";
import type { TaskLedger } from "../mcp/tasks/ledger";
import { listChangeNotifier } from "../mcp/server-views";
import type { McpSource } from "../mcp/types";
import type { EventHub } from "./core-events";

export interface TaskParts {
  /** What the source keeps its tasks in (LoadOptions.tasks). */
  ledger: TaskLedger;
  list(): TasksList;
  handlers(source: () => McpSource): TasksHandlers;
  /** Sends tasks:changed (throttled) on the source's task events and the ledger's changes; returns the stop. */
  watch(source: McpSource, events: EventHub): () => void;
  /** Writes what is waiting; call before the History file closes. */
  close(): void;
}

interface Kept extends TaskLedger {
  list(): TasksList;
  onChange(listener: () => void): () => void;
  cancelling?(id: string): void;
  close(): void;
}

/** A session without a History file: tasks are followed in memory and go with the session. */
function memoryTasks(): Kept {
  const records = new Map<string, TaskRecord>();
  const listeners = new Set<() => void>();
  const changed = () => {
    // Ended tasks past the list's share leave memory: a long session keeps only the recent ones.
    const ended = [...records.values()].filter((r) => !isLiveTask(r.state)).sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0));
    for (const old of ended.slice(0, Math.max(0, ended.length - MAX_LISTED_ENDED))) records.delete(old.id);
    for (const listener of listeners) listener();
  };
  return {
    started: (record) => (records.set(record.id, { ...record }), changed()),
    updated: (id, patch) => {
      const record = records.get(id);
      if (!record) return;
      const next = { ...record, ...patch };
      if (!isLiveTask(next.state)) next.endedAt ??= Date.now();
      records.set(id, next);
      changed();
    },
    live: (server) => [...records.values()].filter((r) => isLiveTask(r.state) && (server === undefined || r.server === server)).map((r) => ({ ...r })),
    get: (id) => {
      const record = records.get(id);
      return record ? { ...record } : undefined;
    },
    list: () => tasksList(records.values()),
    onChange: (listener) => (listeners.add(listener), () => void listeners.delete(listener)),
    close: () => listeners.clear(),
  };
}

export function openTasks(history: HistoryHandle | undefined, redact: <T>(value: T) => T, log: (line: string) => void): TaskParts {
  const kept: Kept = history ? new TasksStore(history.store, { log, redact }) : memoryTasks();
  return {
    ledger: kept,
    list: () => kept.list(),
    handlers: (source) =>
      createTasksHandlers({
        list: () => kept.list(),
        get: (id) => kept.get(id),
        cancelling: (id) => kept.cancelling?.(id),
        cancel: () => {
          const s = source();
          return s.cancelTask ? (id) => s.cancelTask!(id) : undefined;
        },
      }),
    watch(source, events) {
      // At most every SERVERS_EVENT_INTERVAL_MS, as servers:changed: a task polled often, or many
      // tasks at once, must not cost each change a list and a scrub.
      const notifier = listChangeNotifier({
        intervalMs: SERVERS_EVENT_INTERVAL_MS,
        listening: () => events.listening("tasks:changed"),
        send: () => events.emit("tasks:changed", kept.list()),
      });
      const offSource = source.on((event) => {
        if (event.type === "task") notifier.changed();
      });
      const offKept = kept.onChange(() => notifier.changed());
      return () => {
        offSource();
        offKept();
        notifier.close();
      };
    },
    close: () => kept.close(),
  };
}
