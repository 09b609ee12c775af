// The companion as the receiver of 2025-11-25 tasks: a server that sends elicitation/create or
// sampling/createMessage with a `task` param gets a CreateTaskResult at once, and polls the
// client's tasks/get, tasks/result (blocking until answered), tasks/cancel and tasks/list. The
// question itself goes through the same bridge as any (server-requests.ts: the person via the
// Inbox, or the calling agent; sampling by the agent or refused).
//
// ext-tasks' bindTaskReceiver does this on the SDK client: it installs tasks/* handlers (which the
// connection has none of) and wraps the elicitation and sampling handlers so that a request
// without `task` still reaches ours unchanged (it must be bound after server-requests.ts installed
// them). It does not touch the client's fallbackRequestHandler or onclose, which the connection owns.
import type { Client } from "@modelcontextprotocol/client";
import { bindTaskReceiver, type TaskReceiverBinding } from "@modelcontextprotocol/ext-tasks/receiver";
import type { JsonValue } from "@modelcontextprotocol/ext-tasks/core";
import { errorMessage } from "../../../shared/unknown-value";

/** Client tasks kept at once (answered ones are evicted first): a server cannot make the companion hold more. */
export const MAX_CLIENT_TASKS = 64;
/** What the client suggests servers poll its tasks at. */
const CLIENT_TASK_POLL_MS = 1_000;

export interface ReceiverHooks {
  /** The usual bridge for an elicitation (absent when nobody can answer one: then none is offered). */
  elicit?(params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** The usual answer to sampling: the calling agent's, or a refusal. */
  sample(params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** How long a client task is kept from its creation (LoadOptions.maxWaitMs). */
  ttlMs: number;
  log(line: string): void;
}

/** The `tasks` client capability the receiver honours (ClientCapabilities.tasks, 2025-11-25). */
export function receiverCapability(canElicit: boolean): Record<string, unknown> {
  return {
    list: {},
    cancel: {},
    requests: { ...(canElicit ? { elicitation: { create: {} } } : {}), sampling: { createMessage: {} } },
  };
}

/** The request's own params, without the task augmentation (the bridge reads only the question). */
function questionOf(params: Readonly<Record<string, JsonValue>>): Record<string, unknown> {
  const { task: _task, ...rest } = params;
  return rest;
}

/** Binds the receiver to `client` (after its own handlers were installed); close() when the connection ends. */
export function bindReceiver(client: Client, hooks: ReceiverHooks): TaskReceiverBinding {
  const elicit = hooks.elicit;
  return bindTaskReceiver(client, {
    methods: { "sampling/createMessage": true, ...(elicit ? { "elicitation/create": true } : {}) },
    sampling: async (request, { signal }) => (await hooks.sample(questionOf(request.params), signal)) as Record<string, JsonValue>,
    ...(elicit ? { elicitation: async (request, { signal }) => (await elicit(questionOf(request.params), signal)) as Record<string, JsonValue> } : {}),
    ttlMs: hooks.ttlMs,
    pollIntervalMs: CLIENT_TASK_POLL_MS,
    maxTasks: MAX_CLIENT_TASKS,
    onError: (error, context) => {
      // A task the server gave up on (cancelled, expired) whose question then failed is expected.
      if (context.lateAfter === undefined) hooks.log(`a task the server asked of the companion (${context.method}) failed: ${errorMessage(error)}`);
    },
  });
}
