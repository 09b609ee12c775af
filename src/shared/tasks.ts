// Tasks as they cross process boundaries: one piece of work a server runs in the background for
// a call the companion made (MCP tasks, either era), as the Tasks view, the CLI and the gateway
// see it. Plain data: the store (History's SQLite file), the follower in main and the view share it.

/** The server's status of the task, or `gone`: its server no longer knows it, or was removed. */
export type TaskState = "working" | "input_required" | "completed" | "failed" | "cancelled" | "gone";

export const TASK_STATES: readonly TaskState[] = ["working", "input_required", "completed", "failed", "cancelled", "gone"];

/** Whether a task in `state` can still change (is followed). */
export function isLiveTask(state: TaskState): boolean {
  return state === "working" || state === "input_required";
}

/** The tasks wire a server spoke: 2025-11-25's experimental tasks, or the 2026-07-28 extension. */
export type TaskGeneration = "2025-11-25" | "2026-07-28";

export interface TaskProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface TaskRecord {
  /** The companion's own id for the task (`tsk-…`): the view, CLI and gateway name it by this. */
  id: string;
  /** The configured server the task runs on. */
  server: string;
  /** The tool called, by its name on the server. */
  tool: string;
  /** The agent whose call started it; absent when the person started it (Servers view, CLI). */
  agent?: string;
  /** The server's own task id (never shown to agents: the gateway gives them its own). */
  taskId: string;
  generation: TaskGeneration;
  state: TaskState;
  /** The server's statusMessage, bounded and scrubbed. */
  statusMessage?: string;
  progress?: TaskProgress;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms of the last tasks/get answered (or notifications/tasks received). */
  lastPolledAt?: number;
  /** Epoch ms the task reached an ended state. */
  endedAt?: number;
  /** How it ended, in a line (the result's first text, the error, "cancelled by you"…), bounded. */
  outcome?: string;
}

/** The Tasks view's channels. */
export interface TasksList {
  /** Live tasks first (newest first), then the most recently ended ones. */
  tasks: TaskRecord[];
}
