// The 2026-07-28 tasks wire (the `io.modelcontextprotocol/tasks` extension): a tools/call that
// declares the extension in its own per-request client capabilities and may be answered with a
// task (`resultType: "task"`), tasks/get (inputRequests, the inline result or error), tasks/update
// with inputResponses, tasks/cancel. The requests go out through modern-dispatch.ts; what comes
// back is bounded and checked by modern-snapshot.ts before anything reads it.
//
// Why not ext-tasks' client (createTaskSessionFromClient, its TaskController): it drives the task
// itself — its own polling loop, input routing and settlement — and takes over the SDK client's
// fallbackRequestHandler, fallbackNotificationHandler and onclose, one adapter per client. Here
// the follower (follow.ts) drives every task, the ledger keeps it across restarts and the Inbox
// asks the person, and the connection owns its client's handlers and its close. Nor does it spare
// the wire: with the SDK client at 2.4.0 a 2026-07-28 session needs a raw dispatch from the host
// anyway (the SDK's codecs reject task traffic): that is modern-dispatch.ts. What fits is used:
// ext-tasks' core/v2 schemas check every task the server sends (modern-snapshot.ts), and its
// withTaskCapabilityV2 frames the per-request capability (modern-dispatch.ts).
//
// -32021 (Missing Required Client Capability): every request here declares the extension, so a
// -32021 to one of them names something else the companion does not declare (or a server that
// ignores the declaration); it becomes a ToolCallError that names what is missing. A call made
// without the extension (the SDK's path) that gets -32021 naming only the extension may be sent
// again through this wire: the spec has the server answer so when it cannot serve the request
// without a task, before running anything, so the second request is the first that runs
// (requiresTasksExtension says when).
import type { CallToolResult, Client, ClientCapabilities, Implementation, Transport } from "@modelcontextprotocol/client";
import { TASKS_EXTENSION_ID_V2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import { jsonBoundsProblem } from "../../base/json-bounds";
import { ToolCallError } from "../call-paths/call-path";
import { boundedResult } from "../result";
import { MAX_INPUT_ROUNDS, MAX_REQUEST_STATE_LENGTH } from "../../../shared/limits";
import { errorMessage, isPlainObject } from "../../../shared/unknown-value";
import { ModernDispatch } from "./modern-dispatch";
import { createdTask, inputRequired, TaskAnswerError, taskSnapshot } from "./modern-snapshot";
import type { TaskInputRequest, TaskSnapshot, TaskStart, TaskWire } from "./wire";

/** -32021: the request needs a client capability the request did not declare. */
export const MISSING_CLIENT_CAPABILITY = -32021;

/** Answers to an input_required result's requests, by key (the person's, through the Inbox). */
export type AnswerInputs = (requests: Record<string, TaskInputRequest>, signal: AbortSignal) => Promise<Record<string, Record<string, unknown>>>;

export interface ModernWireSetting {
  /** The configured server name, for errors. */
  server: string;
  /** What the client was built with: the SDK client has no getter for either. */
  clientInfo: Implementation;
  clientCapabilities: ClientCapabilities;
  /**
   * A tools/call answered `input_required` before it runs (the spec has a server settle such
   * exchanges before it creates a task): the answers, by key. Without it such a call fails.
   */
  answerInputs?: AnswerInputs;
}

export interface ModernTaskWire extends TaskWire {
  readonly generation: "2026-07-28";
  /** The connection ended: every request still waiting fails with `reason`, later ones at once. */
  close(reason: Error): void;
}

/**
 * The wire of one connected 2026-07-28 session: `client` connected over `transport` (call after
 * connect: the transport's onmessage is then the client's, and is kept for everything but ours).
 */
export function modernTaskWire(client: Pick<Client, "getNegotiatedProtocolVersion" | "notification">, transport: Transport, setting: ModernWireSetting): ModernTaskWire {
  const protocolVersion = client.getNegotiatedProtocolVersion();
  if (protocolVersion === undefined || protocolVersion < "2026-07-28") {
    throw new Error(`${setting.server}: the 2026-07-28 tasks wire needs a 2026-07-28 session (negotiated ${protocolVersion ?? "none"})`);
  }
  const dispatch = new ModernDispatch(transport, { protocolVersion, clientInfo: setting.clientInfo, clientCapabilities: setting.clientCapabilities });
  const { server } = setting;
  // A tools/call given up on is told to the server, as the SDK does for its own requests.
  const abandoned = (id: string, reason: Error) =>
    void client.notification({ method: "notifications/cancelled", params: { requestId: id, reason: errorMessage(reason) } }).catch(() => {});

  async function send(method: string, params: Record<string, unknown>, signal: AbortSignal, what: string, onAbandoned?: typeof abandoned): Promise<Record<string, unknown>> {
    try {
      return await dispatch.request(method, params, signal, onAbandoned);
    } catch (error) {
      throw wireError(server, what, error);
    }
  }

  function read<T>(what: string, parse: () => T): T {
    try {
      return parse();
    } catch (error) {
      if (error instanceof TaskAnswerError) throw new ToolCallError(`${server}: ${error.message}`);
      throw error;
    }
  }

  return {
    generation: "2026-07-28",

    async callTool(tool, args, signal, meta) {
      let retry: Record<string, unknown> = {};
      for (let round = 0; ; round++) {
        const params = { name: tool, arguments: args, ...retry, ...(meta?.progressToken !== undefined ? { _meta: { progressToken: meta.progressToken } } : {}) };
        const result = await send("tools/call", params, signal, tool, abandoned);
        const start = startOf(server, tool, result);
        if (start) return start;
        // input_required: the call asks before it runs; answer and call again with the answers.
        if (!setting.answerInputs) throw new ToolCallError(`${server}: ${tool} asks for input before it runs, and nothing here can answer it`);
        if (round >= MAX_INPUT_ROUNDS) throw new ToolCallError(`${server}: ${tool} asked for input ${MAX_INPUT_ROUNDS} times without running`);
        const requests = read(`the answer of ${server} to ${tool}`, () => inputRequired(result, `the answer to ${tool}`));
        const state = result.requestState;
        if (state !== undefined && (typeof state !== "string" || state.length > MAX_REQUEST_STATE_LENGTH)) {
          throw new ToolCallError(`${server}: the answer to ${tool} was refused: its requestState is not a string of at most ${MAX_REQUEST_STATE_LENGTH} characters`);
        }
        const answers = Object.keys(requests).length > 0 ? await setting.answerInputs(requests, signal) : undefined;
        retry = { ...(answers ? { inputResponses: answers } : {}), ...(state !== undefined ? { requestState: state } : {}) };
      }
    },

    async get(taskId, signal): Promise<TaskSnapshot> {
      const result = await send("tasks/get", { taskId }, signal, "tasks/get");
      return read("tasks/get", () => taskSnapshot(result, taskId, "the answer to tasks/get"));
    },

    async update(taskId, inputResponses, signal) {
      await send("tasks/update", { taskId, inputResponses }, signal, "tasks/update");
    },

    async cancel(taskId, signal) {
      await send("tasks/cancel", { taskId }, signal, "tasks/cancel");
    },

    close: (reason) => dispatch.close(reason),
  };
}

/** A tools/call answer that ends the call: a task, or a plain result; undefined for input_required. */
function startOf(server: string, tool: string, result: Record<string, unknown>): TaskStart | undefined {
  const type = result.resultType;
  if (type === "task") {
    try {
      return { kind: "task", task: createdTask(result, `the task ${tool} started`) };
    } catch (error) {
      if (error instanceof TaskAnswerError) throw new ToolCallError(`${server}: ${error.message}`);
      throw error;
    }
  }
  if (type === "complete") {
    const { resultType: _complete, ...plain } = result;
    return { kind: "result", result: boundedResult(server, tool, plain as CallToolResult) };
  }
  if (type === "input_required") return undefined;
  // The 2026-07-28 wire has every result say its type; the extension adds only "task".
  const said = typeof type === "string" ? `"${type.slice(0, 40)}"` : "none";
  throw new ToolCallError(`${server}: ${tool} answered with a result type the companion does not know (${said})`);
}

/** A request's failure as the wire rejects with it: -32021 named, the rest as the server said it. */
function wireError(server: string, what: string, error: unknown): unknown {
  const e = error as { code?: unknown; data?: unknown };
  if (e?.code !== MISSING_CLIENT_CAPABILITY) return error;
  const missing = missingCapabilities(e.data);
  const named = missing.filter((name) => name !== `extension ${TASKS_EXTENSION_ID_V2}`);
  const message =
    named.length > 0
      ? `${server}: ${what} needs client capabilities the companion does not declare: ${named.join(", ")}`
      : missing.length > 0
        ? `${server}: ${what} says it needs the tasks extension (${TASKS_EXTENSION_ID_V2}), though the request declared it`
        : `${server}: ${what} needs a client capability the companion does not declare (the server did not say which)`;
  return new ToolCallError(message, MISSING_CLIENT_CAPABILITY, e.data);
}

/** At most this many names are listed, each at most this long: they come from the server. */
const MAX_NAMES = 10;
const MAX_NAME = 100;

/**
 * The capabilities a -32021's data.requiredCapabilities lists, as names: `elicitation`,
 * `elicitation.url`, `extension <id>`. Empty when the data says none (or is not that shape).
 */
export function missingCapabilities(data: unknown): string[] {
  if (!isPlainObject(data) || jsonBoundsProblem(data) !== undefined) return [];
  const required = data.requiredCapabilities;
  if (!isPlainObject(required)) return [];
  const names: string[] = [];
  for (const [key, value] of Object.entries(required)) {
    if (key === "extensions" && isPlainObject(value)) {
      for (const id of Object.keys(value)) names.push(`extension ${id.slice(0, MAX_NAME)}`);
      continue;
    }
    const inner = isPlainObject(value) ? Object.keys(value) : [];
    if (inner.length === 0) names.push(key.slice(0, MAX_NAME));
    for (const sub of inner) names.push(`${key}.${sub}`.slice(0, MAX_NAME));
  }
  return names.slice(0, MAX_NAMES);
}

/**
 * Whether a call made without the extension was refused for want of it alone (-32021 naming only
 * `io.modelcontextprotocol/tasks`): the server ran nothing, and the call may go again through the
 * task wire, which declares it.
 */
export function requiresTasksExtension(error: unknown): boolean {
  const e = error as { code?: unknown; data?: unknown } | undefined;
  if (e?.code !== MISSING_CLIENT_CAPABILITY) return false;
  const missing = missingCapabilities(e.data);
  return missing.length === 1 && missing[0] === `extension ${TASKS_EXTENSION_ID_V2}`;
}
