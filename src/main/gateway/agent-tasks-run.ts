// Running one agent's tools/call as a gateway task: the call goes through the session's own
// forwarding (tool-server.ts call: the same scrubbing, cancel and hooks as a plain call), with
// the task's signal, its progress as the task's statusMessage, notifications on the session's
// stream (the call's own stream is gone once the task is returned), and the requests the agent
// answers (sampling, roots, elicitation when "who answers" says the agent) waiting on the task
// until the agent takes them (agent-tasks-wire.ts). Questions for the person go to the person,
// as on a plain call.
import { ProtocolError, ProtocolErrorCode, type CallToolResult, type RequestId } from "@modelcontextprotocol/server";
import type { McpSource } from "../mcp/types";
import type { AgentTasks } from "./agent-tasks";
import { taskWire } from "./agent-tasks-wire";
import { taskSupportOf, type TaskCallParams } from "./agent-tasks-call";
import type { AgentOutbound } from "./outbound";

type Notify = (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;

/** What tool-server.ts's call takes for a task (its CallOptions, as far as a task uses them). */
export interface TaskCallOptions {
  signal: AbortSignal;
  notify: Notify;
  progress: (progress: { progress: number; total?: number; message?: string }) => void;
  send: (request: { method: string; params: Record<string, unknown> }, signal: AbortSignal) => Promise<Record<string, unknown>>;
}

export interface TaskStarterParts {
  tasks: AgentTasks;
  /** The session the tasks belong to. */
  owner: string;
  source: McpSource;
  outbound: AgentOutbound;
  call: (params: TaskCallParams, id: RequestId, options: TaskCallOptions) => Promise<CallToolResult>;
  /** A notification on the session's standalone stream. */
  notify: Notify;
}

/** Starts the task for one task-augmented tools/call and returns its CreateTaskResult; throws the agent's JSON-RPC error. */
export function taskStarter(parts: TaskStarterParts): (params: TaskCallParams, ttl?: number) => Record<string, unknown> {
  const { tasks, owner, source, outbound, call, notify } = parts;
  return (params, ttl) => {
    const tool = source.tools.find((t) => t.name === params.name);
    if (!tool) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, outbound.text(`Unknown tool "${params.name}": no connected server offers it (see tools/list).`));
    }
    if (taskSupportOf(tool.definition) === "forbidden") {
      // The tools specification: a tool that does not offer tasks is refused as one (-32601).
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `The tool "${params.name}" does not run as a task (its execution.taskSupport is "forbidden"); call it without "task".`);
    }
    const started = tasks.start(
      owner,
      (control) =>
        call(params, control.id, {
          signal: control.signal,
          notify,
          progress: (progress) => {
            if (progress.message) control.status(outbound.text(progress.message));
          },
          send: (request, signal) => control.ask(request, signal),
        }),
      ttl,
    );
    if (typeof started === "string") throw new ProtocolError(ProtocolErrorCode.InvalidRequest, started);
    return { task: taskWire(started, tasks.pollIntervalMs) };
  };
}
