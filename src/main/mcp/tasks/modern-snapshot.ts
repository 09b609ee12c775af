// What a 2026-07-28 server says of a task, read into the era-neutral TaskSnapshot (wire.ts). The
// answer is bounded first (json-bounds.ts: depth and node count, so nothing below walks a value
// nested without end; then the ids, keys and counts of limits.ts), then checked against the
// extension's own schemas (ext-tasks core/v2), then cut to what the companion keeps: a status
// message of at most MAX_TASK_STATUS_MESSAGE characters, a poll interval within
// [MIN_TASK_POLL_MS, MAX_TASK_POLL_MS]. Whatever is refused is a TaskAnswerError saying why.
import {
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  InputRequestsV2Schema,
  type InputRequestsV2,
  type TaskV2,
} from "@modelcontextprotocol/ext-tasks/core/v2";
import { jsonBoundsProblem } from "../../base/json-bounds";
import {
  MAX_TASK_ID_LENGTH,
  MAX_TASK_INPUT_KEY_LENGTH,
  MAX_TASK_INPUT_REQUESTS,
  MAX_TASK_POLL_MS,
  MAX_TASK_STATUS_MESSAGE,
  MIN_TASK_POLL_MS,
} from "../../../shared/limits";
import { isPlainObject } from "../../../shared/unknown-value";
import type { TaskInputRequest, TaskSnapshot } from "./wire";

/** An answer of the server that the companion does not take (out of bounds, or not the extension's shape). */
export class TaskAnswerError extends Error {
  constructor(what: string, problem: string) {
    super(`${what} was refused: ${problem}`);
    this.name = "TaskAnswerError";
  }
}

/** Why a value is not taken before any schema reads it, or undefined. */
function preflight(value: Record<string, unknown>): string | undefined {
  const bounds = jsonBoundsProblem(value);
  if (bounds) return bounds;
  if (typeof value.taskId === "string" && value.taskId.length > MAX_TASK_ID_LENGTH) return `its task id is longer than ${MAX_TASK_ID_LENGTH} characters`;
  return inputRequestsProblem(value.inputRequests);
}

function inputRequestsProblem(requests: unknown): string | undefined {
  if (!isPlainObject(requests)) return undefined;
  const keys = Object.keys(requests);
  if (keys.length > MAX_TASK_INPUT_REQUESTS) return `it asks ${keys.length} questions at once (at most ${MAX_TASK_INPUT_REQUESTS})`;
  if (keys.some((key) => key.length > MAX_TASK_INPUT_KEY_LENGTH)) return `an inputRequests key is longer than ${MAX_TASK_INPUT_KEY_LENGTH} characters`;
  return undefined;
}

/** The first thing a schema found wrong, in a line. */
function schemaProblem(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  const where = issue?.path.map(String).join(".");
  const detail = issue ? ` (${where ? `${where}: ` : ""}${issue.message.slice(0, 200)})` : "";
  return `it is not what the 2026-07-28 tasks extension defines${detail}`;
}

function statusMessage(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  return message.length > MAX_TASK_STATUS_MESSAGE ? `${message.slice(0, MAX_TASK_STATUS_MESSAGE - 1)}…` : message;
}

function pollInterval(ms: number | undefined): number | undefined {
  if (ms === undefined) return undefined;
  return Math.min(MAX_TASK_POLL_MS, Math.max(MIN_TASK_POLL_MS, ms));
}

function baseSnapshot(task: TaskV2): TaskSnapshot {
  const message = statusMessage(task.statusMessage);
  const poll = pollInterval(task.pollIntervalMs);
  return {
    taskId: task.taskId,
    status: task.status,
    ...(message !== undefined ? { statusMessage: message } : {}),
    ...(poll !== undefined ? { pollIntervalMs: poll } : {}),
    ttlMs: task.ttlMs !== null && task.ttlMs < 0 ? null : task.ttlMs,
  };
}

/** The extension's inputRequests as the wire hands them on: every request with a params object. */
export function inputRequestsOf(requests: InputRequestsV2): Record<string, TaskInputRequest> {
  const out: Record<string, TaskInputRequest> = {};
  for (const [key, request] of Object.entries(requests)) {
    out[key] = { method: request.method, params: (request.params ?? {}) as Record<string, unknown> };
  }
  return out;
}

/** A tools/call answered `resultType: "task"` (CreateTaskResult): the task as created. */
export function createdTask(result: Record<string, unknown>, what: string): TaskSnapshot {
  const problem = preflight(result);
  if (problem) throw new TaskAnswerError(what, problem);
  const parsed = CreateTaskResultV2Schema.safeParse(result);
  if (!parsed.success) throw new TaskAnswerError(what, schemaProblem(parsed.error));
  if (parsed.data.taskId.length === 0) throw new TaskAnswerError(what, "its task id is empty");
  return baseSnapshot(parsed.data);
}

/** A tasks/get answer (GetTaskResult) for `taskId`: its status and what that status carries. */
export function taskSnapshot(result: Record<string, unknown>, taskId: string, what: string): TaskSnapshot {
  const problem = preflight(result);
  if (problem) throw new TaskAnswerError(what, problem);
  const parsed = GetTaskResultV2Schema.safeParse(result);
  if (!parsed.success) throw new TaskAnswerError(what, schemaProblem(parsed.error));
  const task = parsed.data;
  // Another task's state is no answer about this one.
  if (task.taskId !== taskId) throw new TaskAnswerError(what, "it is about another task");
  const snapshot = baseSnapshot(task);
  if (task.status === "input_required") snapshot.inputRequests = inputRequestsOf(task.inputRequests);
  if (task.status === "completed") snapshot.result = finalResult(task.result as Record<string, unknown>, what);
  if (task.status === "failed") {
    const { code, message, data } = task.error;
    snapshot.error = { code, message: statusMessage(message) ?? "", ...(data !== undefined ? { data } : {}) };
  }
  return snapshot;
}

/**
 * A completed task's inline result as a plain CallToolResult. Servers write it either bare (the
 * spec's examples) or as the 2026-07-28 wire writes a result, with `resultType: "complete"`
 * (what ext-tasks' requester expects); any other type is no final result.
 */
function finalResult(result: Record<string, unknown>, what: string): Record<string, unknown> {
  const { resultType, ...plain } = result;
  if (resultType !== undefined && resultType !== "complete") throw new TaskAnswerError(what, "its result is not a final result");
  return plain;
}

/** An input_required result's inputRequests (a tools/call asking before it runs), bounded and checked. */
export function inputRequired(result: Record<string, unknown>, what: string): Record<string, TaskInputRequest> {
  const problem = jsonBoundsProblem(result) ?? inputRequestsProblem(result.inputRequests);
  if (problem) throw new TaskAnswerError(what, problem);
  if (result.inputRequests === undefined) return {};
  const parsed = InputRequestsV2Schema.safeParse(result.inputRequests);
  if (!parsed.success) throw new TaskAnswerError(what, schemaProblem(parsed.error));
  return inputRequestsOf(parsed.data);
}
