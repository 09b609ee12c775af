// The 2025-11-25 tasks wire (wire.ts) over the SDK client: a task-augmented tools/call
// (params.task {ttl}) answered by a CreateTaskResult or a plain result, tasks/get, tasks/result
// (blocking until the task ended; the server delivers the requests it queued on the task, with
// relatedTask meta, while it is open), tasks/cancel, and tasks/list for "what the server still has".
//
// The SDK v2 client has no runtime for these methods (its typed surface leaves them out), but
// its `request(request, resultSchema, options)` form sends them on a 2025-era session and checks
// the answer against the schema given: ext-tasks' generated 2025-11-25 schemas. ext-tasks' own
// requester session (createTaskSessionFromClient) is not used: it replaces the client's
// fallbackRequestHandler and onclose, which the connection owns (lifecycle.ts), and it owns the
// polling loop and the routing of a task's questions, which are the follower's (follow.ts: the
// ledger, the poll bounds, the one bridge to the person).
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import {
  CancelTaskResultV1Schema,
  CreateTaskResultV1Schema,
  GetTaskResultV1Schema,
  ListTasksResultV1Schema,
  TaskResultV1Schema,
  type TaskV1,
} from "@modelcontextprotocol/ext-tasks/core/v1";
import type { TaskSnapshot, TaskStart, TaskWire } from "./wire";

/** What the legacy wire needs besides its client. */
export interface LegacyWireSetting {
  /** Each tasks/get, tasks/cancel and tasks/list: a server that does not answer one within this has failed it. */
  requestTimeoutMs: number;
  /** The longest a task may run in all (LoadOptions.maxWaitMs): tasks/result's bound, and the ttl asked for. */
  maxWaitMs: number;
}

/** A task the server still keeps, as tasks/list shows it. */
export type ListedTask = TaskSnapshot & { createdAt: string };

/** Whether a 2025-era server offers tasks for tools/call (server capabilities `tasks.requests.tools.call`). */
export function offersToolTasks(capabilities: Record<string, unknown> | undefined): boolean {
  const tasks = capabilities?.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  return typeof tasks?.requests?.tools?.call === "object" && tasks.requests.tools.call !== null;
}

function snapshotOf(task: TaskV1): TaskSnapshot {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    ...(task.pollInterval !== undefined ? { pollIntervalMs: task.pollInterval } : {}),
    ttlMs: task.ttl,
  };
}

export class LegacyTaskWire implements TaskWire {
  readonly generation = "2025-11-25" as const;

  constructor(
    private readonly client: Pick<Client, "request">,
    private readonly setting: LegacyWireSetting,
  ) {}

  async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal, meta: { progressToken?: string } = {}): Promise<TaskStart> {
    const params = {
      name: tool,
      arguments: args,
      task: { ttl: this.setting.maxWaitMs },
      ...(meta.progressToken !== undefined ? { _meta: { progressToken: meta.progressToken } } : {}),
    };
    // Any JSON object: a server may run a tool whose task support is optional at once.
    const answer = await this.client.request({ method: "tools/call", params }, TaskResultV1Schema, this.long(signal));
    if (answer.task === undefined) return { kind: "result", result: answer as unknown as CallToolResult };
    const created = CreateTaskResultV1Schema.safeParse(answer);
    if (!created.success) throw new Error(`the server's CreateTaskResult is malformed: ${created.error.message}`);
    return { kind: "task", task: snapshotOf(created.data.task) };
  }

  async get(taskId: string, signal: AbortSignal): Promise<TaskSnapshot> {
    return snapshotOf(await this.client.request({ method: "tasks/get", params: { taskId } }, GetTaskResultV1Schema, this.short(signal)));
  }

  async result(taskId: string, signal: AbortSignal): Promise<CallToolResult> {
    return (await this.client.request({ method: "tasks/result", params: { taskId } }, TaskResultV1Schema, this.long(signal))) as unknown as CallToolResult;
  }

  async cancel(taskId: string, signal: AbortSignal): Promise<void> {
    await this.client.request({ method: "tasks/cancel", params: { taskId } }, CancelTaskResultV1Schema, this.short(signal));
  }

  /** One page of tasks/list (servers that offer `tasks.list`). */
  async list(signal: AbortSignal, cursor?: string): Promise<{ tasks: ListedTask[]; nextCursor?: string }> {
    const page = await this.client.request({ method: "tasks/list", params: cursor === undefined ? {} : { cursor } }, ListTasksResultV1Schema, this.short(signal));
    return { tasks: page.tasks.map((t) => ({ ...snapshotOf(t), createdAt: t.createdAt })), ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
  }

  private short(signal: AbortSignal) {
    return { signal, timeout: this.setting.requestTimeoutMs, maxTotalTimeout: this.setting.requestTimeoutMs };
  }

  /** tools/call may be answered late by a server that runs it at once; tasks/result blocks until the end. */
  private long(signal: AbortSignal) {
    return { signal, timeout: this.setting.maxWaitMs, maxTotalTimeout: this.setting.maxWaitMs };
  }
}
