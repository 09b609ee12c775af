// The gateway's tasks (agent-tasks.ts) as the 2026-07-28 `io.modelcontextprotocol/tasks`
// extension shows them to an agent: a flat CreateTaskResult (`resultType: "task"`), tasks/get's
// detailed task (the requests waiting on the agent as `inputRequests`, the result inline once
// completed, the error once failed) and tasks/update's `inputResponses` answering them by key.
//
// Served to 2026-07-28 agents by modern-calls.ts; held to the extension's own schemas by the unit
// tests and to its requester by test/integration/gateway-modern-tasks.test.ts.
import { ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { AgentTask } from "./agent-tasks";
import { isPlainObject } from "../../shared/unknown-value";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

function base(task: AgentTask, pollIntervalMs: number): Record<string, unknown> {
  return {
    taskId: task.id,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.updatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs,
  };
}

/** The answer to a tools/call the gateway made a task of. */
export function modernCreateResult(task: AgentTask, pollIntervalMs: number): Record<string, unknown> {
  return { resultType: "task", ...base(task, pollIntervalMs), status: task.status };
}

/** tasks/get: the task with what its status carries. */
export function modernDetailedTask(task: AgentTask, pollIntervalMs: number): Record<string, unknown> {
  const shown = { ...base(task, pollIntervalMs), status: task.status };
  if (task.status === "input_required") {
    const inputRequests = Object.fromEntries([...task.inputs.values()].map((input) => [input.key, { method: input.method, params: input.params }]));
    return { ...shown, inputRequests };
  }
  // The inline result is the 2026-07-28 wire's CallToolResult, which names its resultType (ext-tasks' requester checks it).
  if (task.status === "completed" && task.result) return { ...shown, result: { ...task.result, resultType: "complete" } };
  if (task.status === "failed") return { ...shown, error: { code: ProtocolErrorCode.InternalError, message: task.statusMessage ?? "The call failed." } };
  return shown;
}

/**
 * tasks/update: each response answers the waiting request of its key. Returns the keys that name
 * no waiting request (answered already, or never asked), which are ignored.
 */
export function applyInputResponses(task: AgentTask, inputResponses: unknown): string[] {
  if (!isPlainObject(inputResponses)) return [];
  const ignored: string[] = [];
  for (const [key, response] of Object.entries(inputResponses)) {
    const input = task.inputs.get(key);
    if (!input || !isPlainObject(response)) ignored.push(key);
    else input.answer(response);
  }
  return ignored;
}
