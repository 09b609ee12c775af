// Where an agent's task begins and how tools are offered for it. A 2025-11-25 tools/call with
// `params.task` is answered here with the gateway's own task (CreateTaskResult, a plain JSON
// body: the answer is immediate), before the SDK's server sees it — the SDK's tools/call handler
// accepts only a CallToolResult. The call itself runs in the background (tool-server.ts
// startTask, the store in agent-tasks.ts).
//
// tools/list: an agent that declared tasks gets each tool's execution.taskSupport as its server
// offered it; one that did not gets a task-only tool ("required") without it, so its client calls
// the tool plainly (the SDK v1 client refuses a plain callTool of a tool listed "required"; the
// v2 client reads taskSupport nowhere) and the companion follows the task for it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ProtocolError, ProtocolErrorCode, SUPPORTED_PROTOCOL_VERSIONS, type RequestId } from "@modelcontextprotocol/server";
import { isPlainObject } from "../../shared/unknown-value";

export type TaskSupport = "forbidden" | "optional" | "required";

/** The revisions with 2025-11-25 tasks: from it, before the 2026-07-28 wire (revision ids are ISO dates). */
const TASK_REVISIONS = new Set(SUPPORTED_PROTOCOL_VERSIONS.filter((version) => version >= "2025-11-25" && version < "2026-07-28"));

/** tools/call params without `task` (tool-server.ts CallParams). */
export interface TaskCallParams {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: { progressToken?: string | number };
}

export interface TaskCall {
  id: RequestId;
  params: TaskCallParams;
  /** The agent's requested ttl, ms. */
  ttl?: number;
}

/** A tool's execution.taskSupport as its server listed it (absent: forbidden). */
export function taskSupportOf(definition: Record<string, unknown> | undefined): TaskSupport {
  const support = (definition?.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  return support === "optional" || support === "required" ? support : "forbidden";
}

/**
 * One listed tool as an agent that did not declare tasks should see it: a task-only tool without
 * its taskSupport. "optional" stays: it is true of the gateway too (a plain call runs, and so
 * does a task-augmented one from any 2025-11-25 session), and no client refuses a plain call of it.
 */
function withoutRequiredTask(tool: Record<string, unknown>): Record<string, unknown> {
  if (!isPlainObject(tool.execution) || tool.execution.taskSupport !== "required") return tool;
  const { taskSupport: _dropped, ...execution } = tool.execution;
  const { execution: _execution, ...rest } = tool;
  return Object.keys(execution).length > 0 ? { ...rest, execution } : rest;
}

export function toolsForAgent<T>(tools: T[], declaresTasks: boolean): T[] {
  return declaresTasks ? tools : tools.map((t) => withoutRequiredTask(t as Record<string, unknown>) as T);
}

/**
 * The task-augmented tools/call this POST carries, when the gateway answers it itself: one
 * message, a 2025-11-25 session's headers. Anything else is left to the SDK's transport, which
 * refuses bad headers (a task asked for there runs as a plain call).
 */
export function taskCallOf(req: IncomingMessage, body: unknown): TaskCall | undefined {
  if (!isPlainObject(body) || body.method !== "tools/call" || body.jsonrpc !== "2.0") return undefined;
  const { id, params } = body;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  if (!isPlainObject(params) || typeof params.name !== "string" || !isPlainObject(params.task)) return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  if (params._meta !== undefined && !isPlainObject(params._meta)) return undefined;
  const version = req.headers["mcp-protocol-version"];
  if (typeof version !== "string" || !TASK_REVISIONS.has(version)) return undefined;
  const accept = req.headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  if (!/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) return undefined;
  const { task, ...call } = params;
  const ttl = typeof task.ttl === "number" ? task.ttl : undefined;
  return { id, params: call as unknown as TaskCallParams, ...(ttl !== undefined ? { ttl } : {}) };
}

/** Answers the call with the task `start` made, or its refusal, as one JSON body. */
export function serveTaskCall(start: () => Record<string, unknown>, call: TaskCall, sessionId: string, res: ServerResponse): void {
  let message: Record<string, unknown>;
  try {
    message = { jsonrpc: "2.0", id: call.id, result: start() };
  } catch (error) {
    const e = error instanceof ProtocolError ? error : new ProtocolError(ProtocolErrorCode.InternalError, String((error as Error)?.message ?? error));
    message = { jsonrpc: "2.0", id: call.id, error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } };
  }
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(message);
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text), "mcp-session-id": sessionId });
  res.end(text);
}
