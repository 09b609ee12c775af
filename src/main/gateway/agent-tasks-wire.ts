// The gateway's tasks on the 2025-11-25 wire, for an agent that declared the `tasks` client
// capability: tasks/get, tasks/result (blocks until the task ends, delivering on its stream the
// requests the task waits on the agent for, each marked with the related task), tasks/list (that
// session's tasks only) and tasks/cancel. The store is agent-tasks.ts's; creating a task is
// agent-tasks-call.ts's.
//
// A task id another session created is answered exactly like one that never existed: -32602
// "Task not found", nothing more.
import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY, type Server } from "@modelcontextprotocol/server";
import type { AgentInput, AgentTask, AgentTasks } from "./agent-tasks";

/** What the gateway declares at initialize: tools/call as a task, tasks/list and tasks/cancel. */
export const GATEWAY_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** A request the task waits on may wait this long on the agent (as the gateway's other requests to agents). */
const AGENT_REQUEST_TIMEOUT_MS = 3_600_000;

/** Whether the agent said, at initialize, that it speaks 2025-11-25 tasks. */
export function agentDeclaresTasks(server: Server): boolean {
  return (server.getClientCapabilities() as Record<string, unknown> | undefined)?.tasks !== undefined;
}

/** The 2025-11-25 Task object. */
export function taskWire(task: AgentTask, pollIntervalMs: number): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.updatedAt).toISOString(),
    ttl: task.ttlMs,
    pollInterval: pollIntervalMs,
  };
}

function notFound(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "Task not found");
}

type Send = (request: { method: string; params: Record<string, unknown> }, signal: AbortSignal) => Promise<Record<string, unknown>>;

/**
 * Sends the agent each request the task waits on that it has not been sent yet. One the agent
 * answers settles the request; one cut short by this tasks/result going away is sent again on
 * the next.
 */
function deliver(task: AgentTask, send: Send, signal: AbortSignal): void {
  for (const input of task.inputs.values()) {
    if (input.delivered) continue;
    input.delivered = true;
    const params = { ...input.params, _meta: { ...(input.params._meta as Record<string, unknown> | undefined), [RELATED_TASK_META_KEY]: { taskId: task.id } } };
    Promise.resolve()
      .then(() => send({ method: input.method, params }, signal))
      .then(
        (result) => input.answer(result),
        (error: unknown) => (signal.aborted ? redeliver(input) : input.fail(error)),
      );
  }
}

function redeliver(input: AgentInput): void {
  input.delivered = false;
}

/** tasks/result: the CallToolResult once the task ended; until then its requests for the agent go out on this response. */
async function taskResult(tasks: AgentTasks, task: AgentTask, send: Send, signal: AbortSignal): Promise<Record<string, unknown>> {
  for (;;) {
    deliver(task, send, signal);
    if (task.status === "completed" || task.status === "failed") {
      const result = task.result ?? { content: [{ type: "text", text: task.statusMessage ?? `The task ${task.status}.` }], isError: true };
      return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: task.id } } };
    }
    if (task.status === "cancelled") {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `The task was cancelled (${task.statusMessage ?? "no reason given"}); it has no result.`);
    }
    if (signal.aborted) throw signal.reason;
    await tasks.nextChange(task, signal);
  }
}

/** Registers the 2025-11-25 task methods on one session's server; `owner` is that session. */
export function registerAgentTasks(server: Server, tasks: AgentTasks, owner: string): void {
  const poll = tasks.pollIntervalMs;
  const find = (id: unknown): AgentTask => {
    const task = tasks.find(owner, id);
    if (!task) throw notFound();
    return task;
  };
  // The SDK's typed overloads leave the task methods out; at runtime the 2025-11-25 codec checks them.
  type Handler = (request: { params?: Record<string, unknown> }, ctx: { mcpReq: { signal: AbortSignal; send: (request: never, options: object) => Promise<unknown> } }) => Promise<unknown>;
  const handle = server.setRequestHandler.bind(server) as unknown as (method: string, handler: Handler) => void;
  handle("tasks/get", async (request) => taskWire(find(request.params?.taskId), poll));
  handle("tasks/result", async (request, ctx) => {
    const task = find(request.params?.taskId);
    const send: Send = (message, signal) => ctx.mcpReq.send(message as never, { signal, timeout: AGENT_REQUEST_TIMEOUT_MS }) as Promise<Record<string, unknown>>;
    return taskResult(tasks, task, send, ctx.mcpReq.signal);
  });
  handle("tasks/list", async () => ({ tasks: tasks.list(owner).map((t) => taskWire(t, poll)) }));
  handle("tasks/cancel", async (request) => {
    const task = find(request.params?.taskId);
    if (!tasks.cancel(task)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel a task that has ended (${task.status}).`);
    return taskWire(task, poll);
  });
}
