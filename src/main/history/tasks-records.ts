// A followed task as the tasks table keeps it: every field bounded before it is kept (what a
// server says of its task is untrusted), the row it is written as and read back from, the Tasks
// view's list (live first, then the most recently ended), and the History row an ended task leaves.
import { isLiveTask, TASK_STATES, type TaskGeneration, type TaskProgress, type TaskRecord, type TaskState, type TasksList } from "../../shared/tasks";
import type { HistoryBy, HistoryOutcome } from "../../shared/history";
import type { NewQuestion } from "./store";

/** Names (server, tool, agent) and ids at most this long, as History keeps its askers. */
const MAX_NAME = 200;
const MAX_ID = 512;
/** A status message or an outcome: a line or two, not a result. */
export const MAX_TASK_TEXT = 1000;
/** Live tasks the list carries at most (newest first); the follower bounds how many run. */
export const MAX_LISTED_LIVE = 200;
/** Ended tasks the list carries after the live ones; older ones are in History. */
export const MAX_LISTED_ENDED = 50;

const GENERATIONS: readonly TaskGeneration[] = ["2025-11-25", "2026-07-28"];

function text(value: unknown, max: number): string | undefined {
  return typeof value === "string" ? value.slice(0, max) : undefined;
}

function time(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}

function progressOf(value: unknown): TaskProgress | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const p = value as Record<string, unknown>;
  if (typeof p.progress !== "number" || !Number.isFinite(p.progress)) return undefined;
  const progress: TaskProgress = { progress: p.progress };
  if (typeof p.total === "number" && Number.isFinite(p.total) && p.total > 0) progress.total = p.total;
  const message = text(p.message, MAX_TASK_TEXT);
  if (message !== undefined) progress.message = message;
  return progress;
}

/** The record with every field checked and cut to length; undefined when it lacks what names it. */
export function boundedTask(input: TaskRecord): TaskRecord | undefined {
  const id = text(input.id, MAX_ID);
  const server = text(input.server, MAX_NAME);
  const tool = text(input.tool, MAX_NAME);
  const taskId = text(input.taskId, MAX_ID);
  const createdAt = time(input.createdAt);
  if (!id || server === undefined || tool === undefined || taskId === undefined || createdAt === undefined) return undefined;
  const record: TaskRecord = {
    id,
    server,
    tool,
    taskId,
    generation: GENERATIONS.includes(input.generation) ? input.generation : "2025-11-25",
    state: TASK_STATES.includes(input.state) ? input.state : "gone",
    createdAt,
  };
  const agent = text(input.agent, MAX_NAME);
  if (agent !== undefined) record.agent = agent;
  const statusMessage = text(input.statusMessage, MAX_TASK_TEXT);
  if (statusMessage !== undefined) record.statusMessage = statusMessage;
  const progress = progressOf(input.progress);
  if (progress) record.progress = progress;
  const lastPolledAt = time(input.lastPolledAt);
  if (lastPolledAt !== undefined) record.lastPolledAt = lastPolledAt;
  const endedAt = time(input.endedAt);
  if (endedAt !== undefined) record.endedAt = endedAt;
  const outcome = text(input.outcome, MAX_TASK_TEXT);
  if (outcome !== undefined) record.outcome = outcome;
  return record;
}

export interface TaskRow {
  id: string;
  server: string;
  tool: string;
  agent: string | null;
  task_id: string;
  generation: string;
  state: string;
  status_message: string | null;
  progress: string | null;
  created_at: number;
  last_polled_at: number | null;
  ended_at: number | null;
  outcome: string | null;
}

export function taskRow(record: TaskRecord): TaskRow {
  return {
    id: record.id,
    server: record.server,
    tool: record.tool,
    agent: record.agent ?? null,
    task_id: record.taskId,
    generation: record.generation,
    state: record.state,
    status_message: record.statusMessage ?? null,
    progress: record.progress ? JSON.stringify(record.progress) : null,
    created_at: record.createdAt,
    last_polled_at: record.lastPolledAt ?? null,
    ended_at: record.endedAt ?? null,
    outcome: record.outcome ?? null,
  };
}

/** A row read back (the file is the person's, but still checked as any input is). */
export function taskFromRow(row: TaskRow): TaskRecord | undefined {
  let progress: unknown;
  try {
    progress = row.progress === null ? undefined : JSON.parse(row.progress);
  } catch {
    progress = undefined;
  }
  return boundedTask({
    id: row.id,
    server: row.server,
    tool: row.tool,
    taskId: row.task_id,
    generation: row.generation as TaskGeneration,
    state: row.state as TaskState,
    createdAt: row.created_at,
    ...(row.agent !== null ? { agent: row.agent } : {}),
    ...(row.status_message !== null ? { statusMessage: row.status_message } : {}),
    ...(progress !== undefined ? { progress: progress as TaskProgress } : {}),
    ...(row.last_polled_at !== null ? { lastPolledAt: row.last_polled_at } : {}),
    ...(row.ended_at !== null ? { endedAt: row.ended_at } : {}),
    ...(row.outcome !== null ? { outcome: row.outcome } : {}),
  });
}

/** The Tasks view's list: live tasks (those waiting on the person, then newest first), then the most recently ended, both bounded. */
export function tasksList(records: Iterable<TaskRecord>): TasksList {
  const live: TaskRecord[] = [];
  const ended: TaskRecord[] = [];
  for (const record of records) (isLiveTask(record.state) ? live : ended).push(record);
  // A task waiting on the person comes first: it goes nowhere until they answer.
  const waiting = (t: TaskRecord) => (t.state === "input_required" ? 0 : 1);
  live.sort((a, b) => waiting(a) - waiting(b) || b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  ended.sort((a, b) => (b.endedAt ?? b.createdAt) - (a.endedAt ?? a.createdAt) || (a.id < b.id ? 1 : -1));
  return { tasks: [...live.slice(0, MAX_LISTED_LIVE), ...ended.slice(0, MAX_LISTED_ENDED)] };
}

/**
 * How an ended task reads in History: a row of kind "task" (shared/words.ts words its outcomes
 * Completed, Failed, Cancelled, Gone), so History's search, filters and budgets cover tasks as
 * they cover questions. The task's own states map onto History's outcomes by tone: completed is
 * History's yes, failed its no, a task the server no longer knows was withdrawn.
 */
const HISTORY_OUTCOME: Record<TaskState, HistoryOutcome> = {
  working: "pending",
  input_required: "pending",
  completed: "accepted",
  failed: "declined",
  cancelled: "cancelled",
  gone: "withdrawn",
};

export function taskHistoryRow(record: TaskRecord, cancelledByPerson: boolean): NewQuestion {
  const by: HistoryBy = record.state === "cancelled" && cancelledByPerson ? "person" : "companion";
  const question: NewQuestion = {
    requestId: record.id,
    kind: "task",
    prompt: `Ran ${record.tool} as a background task`,
    server: record.server,
    fields: [],
    outcome: HISTORY_OUTCOME[record.state],
    by,
    receivedAt: record.createdAt,
    settledAt: Math.max(record.createdAt, record.endedAt ?? record.createdAt),
  };
  if (record.agent !== undefined) question.agent = record.agent;
  const reason = record.outcome ?? record.statusMessage;
  if (reason !== undefined) question.reason = reason;
  return question;
}
