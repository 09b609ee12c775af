// A tool call on a connected server: it goes on the connection's call path (picked once, at
// connect: call-paths/choose.ts) after the server was given this call's roots, under an idle
// timer that is held while the server waits on a person. A call the server refuses for want of
// sign-in is retried after the person signed in; one that needs the person to open URL(s) first
// (URL elicitation) is retried once they did. A tool that needs a task (tool-listing.ts) goes on
// the connection's task wire instead, followed to its end (tasks.ts): its polls are its liveness.
// A call on the SDK's path (it does not declare the 2026-07-28 tasks extension) that the server
// refuses with -32021 for want of that extension alone ran nothing there: it goes again on the
// task wire, which declares it, or fails saying the server wants what it did not declare.
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { ServerConfig } from "../config/config";
import { elicitationProblem } from "../elicit";
import { boundedResult } from "../result";
import type { ExecuteContext } from "../types";
import type { WaitFor } from "../../inbox/wait-for";
import { ToolCallError, type CallPath } from "../call-paths/call-path";
import { LinkedAbort } from "../../base/linked-abort";
import { MAX_SIGN_INS_PER_CONNECT } from "../../auth/session";

import { IdleTimer } from "./idle-timer";
import type { ActiveCall } from "./active-call";
import type { ServerRequests } from "./server-requests";
import { isUnauthorized } from "./sign-in";
import type { ConnectionTasks } from "./tasks";
import type { TaskWire } from "../tasks/wire";
import { MISSING_CLIENT_CAPABILITY, requiresTasksExtension } from "../tasks/modern-wire";
import { TASKS_EXTENSION_ID_V2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import { errorMessage } from "../../../shared/unknown-value";

/** -32042: the tool needs the person to open URL(s) first (2025-11-25). */
const URL_ELICITATION_REQUIRED = -32042;
const MAX_URL_RETRIES = 3;

/** What a call needs of its connection. */
export interface CallsHost {
  readonly config: ServerConfig;
  readonly waitFor?: WaitFor;
  readonly requests: ServerRequests;
  /** The connection's call path while it is connected, else undefined. */
  path(): CallPath | undefined;
  /** The task wire a call of `tool` goes on, when it goes as a task (connected, and the tool needs one). */
  taskWire(tool: string): TaskWire | undefined;
  readonly tasks: ConnectionTasks;
  /** Why the server is not connected, as the error a call fails with. */
  notConnected(): ToolCallError;
  /** The server's status error, if any. */
  statusError(): string | undefined;
  /** Resolves true once signed in and connected; never rejects. */
  signIn(agent?: string): Promise<boolean>;
}

/** One call of `tool` (its name on the server): the server's result, bounded (result.ts). */
export async function executeTool(host: CallsHost, tool: string, args: Record<string, unknown>, ctx: ExecuteContext = {}): Promise<CallToolResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await callOnce(host, tool, args, ctx);
    } catch (error) {
      if (isUnauthorized(error)) {
        // The server wants (more) authorization for this call: ask, then retry the call.
        if (attempt < MAX_SIGN_INS_PER_CONNECT && (await host.signIn(ctx.agent))) continue;
        const status = host.statusError();
        throw new ToolCallError(`${host.config.name}: ${tool} needs sign-in${status ? `: ${status}` : ""}`);
      }
      const code = (error as { code?: unknown }).code;
      if (code !== URL_ELICITATION_REQUIRED || !host.waitFor || attempt >= MAX_URL_RETRIES) throw error;
      await browserSteps(host, host.waitFor, tool, error, ctx.signal ?? new AbortController().signal);
    }
  }
}

/** The server needs the person to visit URL(s) first: ask; resolves only if they agreed to every one. */
async function browserSteps(host: CallsHost, waitFor: WaitFor, tool: string, error: unknown, signal: AbortSignal): Promise<void> {
  const elicitations = ((error as { data?: { elicitations?: unknown[] } }).data?.elicitations ?? []) as Record<string, unknown>[];
  const answers = [];
  for (const e of elicitations) {
    const params = { ...e, mode: "url" };
    const problem = elicitationProblem(params);
    if (problem) throw new ToolCallError(`${host.config.name}: ${tool} needs a browser step that was refused: ${problem}`, URL_ELICITATION_REQUIRED);
    answers.push(await host.requests.elicit(waitFor, params, signal));
  }
  if (elicitations.length === 0 || answers.some((a) => a.action !== "accept")) {
    throw new ToolCallError(`${host.config.name}: ${tool} needs a browser step that was not completed`, URL_ELICITATION_REQUIRED);
  }
}

async function callOnce(host: CallsHost, tool: string, args: Record<string, unknown>, ctx: ExecuteContext): Promise<CallToolResult> {
  const path = host.path();
  if (!path) throw host.notConnected();
  const { config, requests } = host;
  const idleMs = config.callTimeout;
  const abort = new LinkedAbort([ctx.signal]);
  const wire = host.taskWire(tool);
  const call: ActiveCall = {
    agent: ctx.agent,
    rootsKey: ctx.roots ? `agent:${ctx.session ?? ctx.agent ?? ""}` : "config",
    tool,
    ctx: wire ? host.tasks.contextOf(ctx, () => call) : ctx,
    timer: new IdleTimer(idleMs, () => abort.abort(new ToolCallError(`${config.name}: ${tool} got no response for ${idleMs} ms`))),
    questions: new Set(),
  };
  const signal = abort.signal;
  const progressToken = requests.enter(call);
  try {
    // In the call's async context (a request the server sends on the call's own stream is its),
    // after its roots are in place.
    return await requests.within(call, async () => {
      await requests.rootsFor(call, signal);
      if (wire) return boundedResult(config.name, tool, await host.tasks.call(wire, call, args, signal, progressToken));
      try {
        return boundedResult(config.name, tool, await path.call(tool, args, signal, { progressToken }));
      } catch (error) {
        if (!requiresTasksExtension(error)) throw error;
        const fallback = host.tasks.wire();
        if (!fallback) throw new ToolCallError(`${config.name}: ${tool} runs only as a task (the ${TASKS_EXTENSION_ID_V2} extension), which the server did not declare at initialize`, MISSING_CLIENT_CAPABILITY, (error as { data?: unknown }).data);
        return boundedResult(config.name, tool, await host.tasks.call(fallback, call, args, signal, progressToken));
      }
    });
  } catch (error) {
    if (signal.aborted && signal.reason instanceof ToolCallError) throw signal.reason;
    if (error instanceof ToolCallError || isUnauthorized(error)) throw error;
    const e = error as { code?: number; data?: unknown };
    throw new ToolCallError(`${config.name}: ${tool} failed: ${errorMessage(error)}`, e.code, e.data);
  } finally {
    call.timer.stop();
    abort.dispose();
    requests.leave(call, progressToken, signal.reason);
    // Read for the last time above; the transports took their listeners off when the call ended.
    abort.release();
  }
}
