// Long waits in one agent session (long-waits.ts): wraps the session's tools/call so that, for an
// agent that opted in, a call still waiting on the person at the deadline returns "not answered
// yet" and goes on parked (long-waits-call.ts, long-waits-store.ts), and `toolnexus_wait` claims
// it. Apart from tool-server.ts so the forwarding of a call stays as it is: a parked call is the
// same forwarded call, under an id of its own, no longer reachable by the agent's request or its
// session once parked.
import { randomUUID } from "node:crypto";
import type { CallToolResult, RequestId } from "@modelcontextprotocol/server";
import { LinkedAbort } from "../base/linked-abort";
import type { McpSource } from "../mcp/types";
import { errorMessage } from "../../shared/unknown-value";
import { OrderedSends, relayToAgent } from "./heartbeat";
import { WAIT_TOOL, waitToolDefinition } from "./long-waits";
import { longWaitCall, waitForParked, type LongWaits } from "./long-waits-call";
import type { AgentOutbound } from "./outbound";

type Notification = { method: string; params: Record<string, unknown> };

/** tools/call as tool-server.ts forwards it (its CallParams, CallOptions). */
interface Params {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: { progressToken?: string | number };
}
interface Options {
  signal?: AbortSignal;
  notify?: (notification: Notification) => Promise<void>;
  send?: (request: Notification, signal: AbortSignal) => Promise<Record<string, unknown>>;
  onquestion?: (open: boolean) => void;
}
type Call = (params: Params, id: RequestId, options?: Options) => Promise<CallToolResult>;

/** What of a session long waits need. */
export interface LongWaitSession {
  options: { source: McpSource; outbound: AgentOutbound; longWaits?: LongWaits; credential?: string };
  /** The session's calls in flight, by request id: what abortCall and abortAll reach. */
  calls: Map<RequestId, LinkedAbort>;
  agent: () => string | undefined;
}

function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** The agent's deadline when it waits long now (the config is followed live). */
function deadlineOf(s: LongWaitSession): number | undefined {
  return s.options.longWaits?.deadline(s.agent() ?? "agent");
}

/** Who owns this session's parked calls: its credential and its agent. */
function ownerOf(s: LongWaitSession): string {
  return `${s.options.credential ?? "gateway-token"}\n${s.agent() ?? "agent"}`;
}

/** The companion's own tools for this agent: toolnexus_wait when it waits long. */
export function companionTools(s: LongWaitSession): never[] {
  const deadlineMs = deadlineOf(s);
  return deadlineMs === undefined ? [] : [waitToolDefinition(deadlineMs) as never];
}

/** The session's tools/call, with long waits for an agent that opted in. */
export function withLongWaits(s: LongWaitSession, call: Call): Call {
  return (params, id, options = {}) => {
    const waits = s.options.longWaits;
    const deadlineMs = deadlineOf(s);
    if (!waits || deadlineMs === undefined) return call(params, id, options);
    if (params.name === WAIT_TOOL) return waitTool(s, waits, deadlineMs, params, id, options);
    const tool = s.options.source.tools.find((t) => t.name === params.name);
    if (!tool) return call(params, id, options);
    return parkable(s, waits, { deadlineMs, structured: tool.definition?.outputSchema !== undefined }, call, params, id, options);
  };
}

/**
 * One call that may be parked. Until then the agent's cancel and the session's aborts reach it
 * (through `outer`, under the agent's request id); once parked, only the store's close does, and
 * what the call would still send on the agent's finished request (heartbeats, a request for the
 * agent) goes nowhere.
 */
function parkable(s: LongWaitSession, waits: LongWaits, facts: { deadlineMs: number; structured: boolean }, call: Call, params: Params, id: RequestId, options: Options): Promise<CallToolResult> {
  const long = longWaitCall(waits, { owner: ownerOf(s), tool: params.name, structured: facts.structured, deadlineMs: facts.deadlineMs });
  const outer = new LinkedAbort([options.signal]);
  s.calls.set(id, outer);
  const innerId = `long-wait:${randomUUID()}`;
  let parked = false;
  const { notify, send, onquestion } = options;
  const running = call(params, innerId, {
    signal: outer.signal,
    ...(notify ? { notify: (n: Notification) => (parked ? Promise.resolve() : notify(n)) } : {}),
    ...(send ? { send: (r: Notification, signal: AbortSignal) => (parked ? Promise.reject(new Error("the agent no longer waits on this call")) : send(r, signal)) } : {}),
    onquestion: (open) => {
      long.question(open);
      onquestion?.(open);
    },
  });
  void running.then(
    () => settled(),
    () => settled(),
  );
  function settled(): void {
    if (s.calls.get(id) === outer) s.calls.delete(id);
    outer.release();
  }
  const detach = () => {
    parked = true;
    outer.dispose();
    if (s.calls.get(id) === outer) s.calls.delete(id);
    s.calls.delete(innerId);
  };
  const failed = (error: unknown) => failure(`The companion could not run ${params.name}: ${s.options.outbound.text(errorMessage(error))}`);
  return long.race(running, detach, failed, (reason) => outer.abort(reason));
}

/** `toolnexus_wait`: cancelled or dropped like any call (abortCall); the parked call it waits on goes on. */
async function waitTool(s: LongWaitSession, waits: LongWaits, deadlineMs: number, params: Params, id: RequestId, options: Options): Promise<CallToolResult> {
  const callId = params.arguments?.call;
  if (typeof callId !== "string" || callId.length === 0 || callId.length > 200) {
    return failure(`${WAIT_TOOL} needs {"call": "<id>"}: the id a call's "not answered yet" result gave.`);
  }
  const abort = new LinkedAbort([options.signal]);
  s.calls.set(id, abort);
  const notify = options.notify;
  const sends = notify && new OrderedSends((notification) => notify(s.options.outbound.relay(notification)));
  const relay = relayToAgent(params._meta?.progressToken, sends);
  try {
    const result = await waitForParked(waits.store, { owner: ownerOf(s), id: callId, deadlineMs, signal: abort.signal, relay });
    await sends?.done();
    return result;
  } finally {
    if (s.calls.get(id) === abort) s.calls.delete(id);
    abort.release();
  }
}
