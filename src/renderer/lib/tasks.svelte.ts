// The tasks the companion follows (work a server runs in the background for a call), as main last
// sent them, and the one action on them: Cancel, confirmed first, which main answers with the new
// list. The words the Tasks view shows for a task (who started it, how long, how it ended) are here
// too, as pure functions its tests read.
import type { Envelope } from "../../shared/contract";
import { isLiveTask, type TaskRecord, type TasksList } from "../../shared/tasks";

import type { Call } from "./api";

export class TasksState {
  // Raw state: main sends whole snapshots and we replace them.
  list = $state.raw<TaskRecord[]>([]);
  /** Why the list could not be fetched, shown in the view until the next fetch. */
  error = $state("");
  /** The task whose Cancel asks "Cancel it?" now (one at a time). */
  confirming = $state<string | undefined>();
  /** Tasks whose cancel is on its way to the server. */
  cancelling = $state.raw<ReadonlySet<string>>(new Set());
  /** Main's refusal of a cancel, by task id, shown beside that task. */
  refusals = $state.raw<Readonly<Record<string, string>>>({});
  loaded = $state(false);
  /** `tasks:changed` events seen, so a list asked for before one loses to it. */
  #seen = 0;

  constructor(private readonly call: Call) {}

  get live(): TaskRecord[] {
    return this.list.filter((t) => isLiveTask(t.state));
  }

  get ended(): TaskRecord[] {
    return this.list.filter((t) => !isLiveTask(t.state));
  }

  /** Main's `tasks:changed`. */
  changed(list: TasksList): void {
    this.#seen++;
    this.#take(list);
  }

  async load(): Promise<Envelope<TasksList>> {
    const seen = this.#seen;
    const result = await this.call("tasks:list");
    if (result.ok) {
      this.error = "";
      if (this.#seen === seen) this.#take(result.value);
    } else this.error = result.error.message;
    return result;
  }

  /** Cancel pressed: ask first (a cancelled task's work is lost and cannot be resumed). */
  ask(id: string): void {
    this.confirming = id;
    const { [id]: _dropped, ...rest } = this.refusals;
    this.refusals = rest;
  }

  keep(): void {
    this.confirming = undefined;
  }

  async cancel(id: string): Promise<void> {
    this.confirming = undefined;
    this.cancelling = new Set([...this.cancelling, id]);
    const result = await this.call("tasks:cancel", { id });
    const rest = new Set(this.cancelling);
    rest.delete(id);
    this.cancelling = rest;
    if (result.ok) {
      this.#seen++;
      this.#take(result.value);
    } else this.refusals = { ...this.refusals, [id]: result.error.message };
  }

  #take(list: TasksList): void {
    this.loaded = true;
    this.list = Array.isArray(list?.tasks) ? list.tasks : [];
    if (this.confirming !== undefined && !this.live.some((t) => t.id === this.confirming)) this.confirming = undefined;
  }
}

/** Who started it: the agent whose call it was, or the person (Servers view, CLI). */
export function startedBy(task: TaskRecord): string {
  return task.agent ? `Started by ${task.agent}` : "Started by you";
}

/** "12 s", "4 min 05 s", "2 h 10 min": how long it has run (or ran). */
export function elapsedText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, "0")} min`;
  return `${Math.floor(hours / 24)} days`;
}

/** The fraction done (0–1) when the server gave a total; undefined otherwise. */
export function progressFraction(task: TaskRecord): number | undefined {
  const p = task.progress;
  if (!p || p.total === undefined || !(p.total > 0)) return undefined;
  return Math.min(1, Math.max(0, p.progress / p.total));
}

/** How a task ended, in the words History uses for it (shared/words.ts: Completed, Failed…). */
export const ENDED_WORDS: Record<TaskRecord["state"], string> = {
  working: "Running",
  input_required: "Waiting for you",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
  gone: "Gone",
};

export function endedTone(state: TaskRecord["state"]): "yes" | "no" | "ended" | "open" {
  if (state === "completed") return "yes";
  if (state === "failed") return "no";
  if (isLiveTask(state)) return "open";
  return "ended";
}
