// Tasks outlive the companion: the ledger keeps every task not yet ended. When a server connects,
// each of its live tasks that nobody here follows is followed again (tasks/get first: a question
// it still waits on is asked again, and its end is written to the ledger's outcome, since no
// caller waits for it any more). A task its server can no longer be asked about (the server now
// speaks no tasks of its generation, or it is gone from the config) is marked `gone`, never
// forgotten: the Tasks view shows what became of it.
import type { TaskRecord } from "../../../shared/tasks";
import type { TaskLedger } from "./ledger";
import type { TaskWire } from "./wire";
import { taskText } from "./follow";

export interface ResumeHost {
  readonly server: string;
  readonly ledger: TaskLedger;
  emit(record: TaskRecord): void;
  /** The connection's wire, now that it is connected; undefined when the server offers no tasks for tools/call. */
  wire(): TaskWire | undefined;
  isFollowed(id: string): boolean;
  /** Follows `record` again on `wire`, with no caller (the end goes to the ledger). */
  follow(record: TaskRecord, wire: TaskWire): void;
}

/** Ends `record` as gone, saying why. */
export function markGone(ledger: TaskLedger, emit: (record: TaskRecord) => void, record: TaskRecord, why: string, now = Date.now()): void {
  const patch = { state: "gone" as const, endedAt: now, outcome: taskText(why) };
  ledger.updated(record.id, patch);
  emit({ ...record, ...patch });
}

/** A server just connected: its live tasks are followed again, or marked gone. Returns how many are followed. */
export function resumeTasks(host: ResumeHost): number {
  let resumed = 0;
  for (const record of host.ledger.live(host.server)) {
    if (host.isFollowed(record.id)) continue;
    const wire = host.wire();
    if (!wire || wire.generation !== record.generation) {
      const now = wire ? `speaks the ${wire.generation} tasks` : "offers no tasks";
      markGone(host.ledger, host.emit, record, `the server now ${now}; this ${record.generation} task cannot be asked about`);
      continue;
    }
    host.follow(record, wire);
    resumed++;
  }
  return resumed;
}

/** Live tasks of servers no longer in the config are gone: nothing will ask about them again. */
export function markRemovedServers(ledger: TaskLedger, emit: (record: TaskRecord) => void, configured: ReadonlySet<string>): void {
  for (const record of ledger.live()) {
    if (!configured.has(record.server)) markGone(ledger, emit, record, `its server "${record.server}" was removed from the config`);
  }
}
