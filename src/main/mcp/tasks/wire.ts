// One tasks wire, as the era-neutral follower (follow.ts) drives it: the 2025-11-25 experimental
// tasks (task-augmented tools/call, tasks/get, tasks/result, tasks/cancel) or the 2026-07-28
// `io.modelcontextprotocol/tasks` extension (resultType "task", tasks/get with inputRequests,
// tasks/update, tasks/cancel). Each generation's file implements it; nothing above it knows which.
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { TaskGeneration } from "../../../shared/tasks";

/** The server's own task statuses (both generations use the same five). */
export type ServerTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A server-to-client request a task waits on (2026-07-28 `inputRequests` entries). */
export interface TaskInputRequest {
  method: string;
  params: Record<string, unknown>;
}

/** What one tasks/get (or notifications/tasks) said of a task. */
export interface TaskSnapshot {
  taskId: string;
  status: ServerTaskStatus;
  statusMessage?: string;
  /** The server's suggested poll interval, ms (2025: pollInterval; 2026: pollIntervalMs). */
  pollIntervalMs?: number;
  /** Time to live from creation, ms; null for unlimited. */
  ttlMs?: number | null;
  /** 2026-07-28, status input_required: outstanding requests by key (unique over the task's life). */
  inputRequests?: Record<string, TaskInputRequest>;
  /** 2026-07-28, status completed: the final result, inline. */
  result?: Record<string, unknown>;
  /** Status failed: the JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
}

/** How a tools/call that may become a task was answered. */
export type TaskStart = { kind: "result"; result: CallToolResult } | { kind: "task"; task: TaskSnapshot };

export interface TaskWire {
  readonly generation: TaskGeneration;
  /**
   * A tools/call the server may answer with a task. Rejects with the server's JSON-RPC error
   * (the SDK's ProtocolError shape: code, message, data) or the abort's reason.
   */
  callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal, meta?: { progressToken?: string }): Promise<TaskStart>;
  /** tasks/get. Rejects -32602 when the server no longer knows the task. */
  get(taskId: string, signal: AbortSignal): Promise<TaskSnapshot>;
  /**
   * 2025-11-25 tasks/result: the final CallToolResult once the task ended (the server delivers
   * the requests it queued on the task, with relatedTask, while this is open). Absent on 2026-07-28,
   * where a completed snapshot carries its result.
   */
  result?(taskId: string, signal: AbortSignal): Promise<CallToolResult>;
  /** 2026-07-28 tasks/update: answers to inputRequests, by key. Absent on 2025-11-25. */
  update?(taskId: string, inputResponses: Record<string, Record<string, unknown>>, signal: AbortSignal): Promise<void>;
  /** tasks/cancel. */
  cancel(taskId: string, signal: AbortSignal): Promise<void>;
}
