// What a connected server asks of the companion, and where what it tells goes: its elicitations
// (bridged to the app's `waitFor`, or answered by the calling agent: agent-or-person.ts),
// sampling and roots (the agent of the call they belong to), its progress and log messages (the
// calls in flight), any other notification to the source. A request belongs to the call the wire
// names (callScope, or the task its relatedTask meta names), else to every call in flight.
import { AsyncLocalStorage } from "node:async_hooks";
import { RELATED_TASK_META_KEY, type Client } from "@modelcontextprotocol/client";
import type { ServerConfig } from "../config/config";
import { answerToElicitResult, elicitationProblem, elicitationToRequest, type ElicitResult } from "../elicit";
import { forwardedNotifications, NO_AGENT_CAN_ANSWER } from "../forward";
import type { AgentRequest } from "../types";
import type { WaitFor } from "../../inbox/wait-for";
import { LinkedAbort } from "../../base/linked-abort";
import { AgentGone } from "../../inbox/agent-gone";
import { elicitViaAgent } from "./agent-or-person";
import { agentsOf, announceQuestion, onlyTool, type ActiveCall, type Question } from "./active-call";

/**
 * How long a call waits for the server to re-fetch roots after notifications/roots/list_changed:
 * the first time, while it is not known whether this server re-fetches at all; then, for one that
 * does, long enough for a loaded machine (a call that went on early would run under the previous
 * agent's roots); for one that did not, not at all (waiting would not change what it holds).
 */
const ROOTS_FIRST_REFETCH_MS = 5_000;
const ROOTS_REFETCH_MS = 10_000;

type Progress = { progress: number; total?: number; message?: string };

/** -32602: an elicitation refused for its params (out of bounds), so the server can tell it from a person's cancel. */
class ElicitationRefused extends Error {
  readonly code = -32602;
}

/** What the requests need of their connection. */
export interface RequestsHost {
  readonly config: ServerConfig;
  /** The app's resolver (LoadOptions.waitFor); without one, elicitation is not offered. */
  readonly waitFor?: WaitFor;
  /** The connected client, while there is one. */
  client(): Client | undefined;
  offers(method: string): boolean;
  /** A notification the gateway passes on to agents (forward.ts lists which). */
  notified(method: string, params: Record<string, unknown>): void;
  log(line: string): void;
}

export class ServerRequests {
  private readonly activeCalls = new Set<ActiveCall>();
  /** Questions waiting on the person, so a connection that ends can withdraw them. */
  private readonly openQuestions = new Set<Question>();
  /** Elicitation handlers that have not returned: quitting waits (bounded) for their answers. */
  readonly openHandlers = new Set<Promise<unknown>>();
  /**
   * Progress of the calls in flight, by the token each call sent. The SDK's own `onprogress` is
   * not used: it runs a notification's handler a microtask late but settles a response at once,
   * dropping that handler, so a last progress read in the same chunk as its result (stdio under
   * load) was lost. A call's entry here outlives its response until the call's code after it runs.
   */
  private readonly progress = new Map<string, (progress: Progress) => void>();
  private progressTokens = 0;
  private pendingQuestions = 0;
  /**
   * The call a server's request belongs to, where the wire says: a request that arrives on a
   * call's own response stream (streamable HTTP) or in its `input_required` result (2026-07-28)
   * is handled in that call's async context. Over stdio nothing says, and the store is empty.
   */
  private readonly callScope = new AsyncLocalStorage<ActiveCall>();
  /** The server asked roots/list at least once: it uses roots, so a change of whose roots is told. */
  private rootsAsked = false;
  /** Whose roots the server was last given (an ActiveCall.rootsKey). */
  private rootsOf?: string;
  /** Resolves the wait of a call that told the server its roots changed, once the server re-asked. */
  private rootsRefetched?: () => void;
  /** Whether this server re-fetches roots when told they changed; undefined until it was told once. */
  private rootsRefetches?: boolean;
  /** Called (and replaced) whenever a call ends: calls under another agent's roots wait on it. */
  private callEnded = new Set<() => void>();
  /**
   * The call each followed task belongs to, by the server's task id: a 2025-11-25 server delivers
   * the requests it queued on a task during tasks/result with relatedTask meta naming the task,
   * and they belong to that task's call (a resumed task's stand-in when no caller waits).
   */
  private readonly taskOwners = new Map<string, ActiveCall>();

  constructor(private readonly host: RequestsHost) {}

  /** Answers the server's requests on `client` and takes its notifications (progress replaces the SDK's handler). */
  install(client: Client): void {
    const waitFor = this.host.waitFor;
    if (waitFor) client.setRequestHandler("elicitation/create", (request, ctx) => this.onElicitation(waitFor, request.params, ctx.mcpReq.signal));
    client.setRequestHandler("sampling/createMessage", (request, ctx) => this.answerSampling(request.params as Record<string, unknown>, ctx.mcpReq.signal) as never);
    client.setRequestHandler("roots/list", (request, ctx) => this.answerRoots((request.params ?? {}) as Record<string, unknown>, ctx.mcpReq.signal) as never);
    for (const method of forwardedNotifications) {
      client.setNotificationHandler(method, (notification) => this.onNotification(method, (notification.params ?? {}) as Record<string, unknown>));
    }
    // A token no call of ours sent is ignored.
    client.setNotificationHandler("notifications/progress", (notification) => {
      const { progressToken, progress, total, message } = notification.params;
      this.progress.get(String(progressToken))?.({ progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) });
    });
  }

  /**
   * A call goes on: its idle timer is held while a question is pending, and its progress (only
   * when the caller wants it: a progress token makes a streamable HTTP server answer with an
   * event stream, which costs a millisecond or two) reaches it. Returns the token to send.
   */
  enter(call: ActiveCall): string | undefined {
    call.timer.hold(this.pendingQuestions > 0);
    this.activeCalls.add(call);
    const onprogress = call.ctx.onprogress;
    if (!onprogress) return undefined;
    const progressToken = `call-${++this.progressTokens}`;
    this.progress.set(progressToken, (progress) => {
      call.timer.touch();
      onprogress(progress);
    });
    return progressToken;
  }

  /** Runs the call's work in its async context, where its server's requests are known as its own. */
  within<T>(call: ActiveCall, work: () => Promise<T>): Promise<T> {
    return this.callScope.run(call, work);
  }

  /** The call ended (`reason`: why its signal was aborted, if it was): questions only it waited on are withdrawn. */
  leave(call: ActiveCall, progressToken: string | undefined, reason: unknown): void {
    if (progressToken !== undefined) this.progress.delete(progressToken);
    this.activeCalls.delete(call);
    const waiting = [...this.callEnded];
    this.callEnded.clear();
    for (const wake of waiting) wake();
    for (const question of call.questions) {
      question.calls.delete(call);
      // The agent going away is said as such (AgentGone), so the page can name it.
      if (question.calls.size === 0) question.abort.abort(reason instanceof AgentGone ? reason : new Error(`the call to ${call.tool} that asked this question has ended`));
    }
  }

  /** Requests the server relates to task `taskId` belong to `call` until disowned. */
  ownTask(taskId: string, call: ActiveCall): void {
    this.taskOwners.set(taskId, call);
  }

  disownTask(taskId: string): void {
    this.taskOwners.delete(taskId);
  }

  /**
   * An elicitation asked as the client's own task (tasks/receiver.ts): the same bridge as any
   * elicitation. Rejects without a resolver (then elicitation is not offered at all).
   */
  answerElicitation(params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const waitFor = this.host.waitFor;
    if (!waitFor) return Promise.reject(new Error("elicitation is not offered: nobody can answer it"));
    return Promise.resolve().then(() => this.onElicitation(waitFor, params, signal) as Promise<Record<string, unknown>>);
  }

  /**
   * One request a task waits on (2026-07-28 inputRequests), answered as the server's own request
   * of that method would be, for the task's call (`owner`).
   */
  answerInput(owner: ActiveCall, method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    return this.within(owner, () => {
      if (method === "elicitation/create") return this.answerElicitation(params, signal);
      if (method === "sampling/createMessage") return this.answerSampling(params, signal);
      if (method === "roots/list") return this.answerRoots(params, signal);
      return Promise.reject(new Error(`a task asked for ${method}, which the companion does not answer`));
    });
  }

  withdrawQuestions(reason: Error): void {
    for (const question of this.openQuestions) question.abort.abort(reason);
  }

  /**
   * A server's elicitation: refused with -32602 when its params are out of bounds (it never
   * reaches the Inbox), else bridged; open handlers are kept so quitting can wait for them.
   */
  private onElicitation(waitFor: WaitFor, params: unknown, serverSignal: AbortSignal) {
    const problem = elicitationProblem(params);
    if (problem) {
      this.host.log(`${this.host.config.name}: ${problem}; it was refused and not shown`);
      throw new ElicitationRefused(problem);
    }
    const handling = this.elicit(waitFor, params, serverSignal);
    this.openHandlers.add(handling);
    const done = () => void this.openHandlers.delete(handling);
    handling.then(done, done);
    return handling;
  }

  /** The bridge, inline: elicitation → Request → waitFor → Answer → ElicitResult. */
  async elicit(waitFor: WaitFor, params: unknown, serverSignal: AbortSignal) {
    const request = elicitationToRequest(params as Record<string, unknown>);
    // A pushed elicitation does not say which call it belongs to, so it belongs to every call in
    // flight; when all of them have ended (timed out, abandoned) nobody waits for the answer.
    // One controller per question, following only the server's signal: AbortSignal listeners are
    // the costliest part of this path, and the connection's end is handled through openQuestions.
    const question: Question = { calls: new Set(this.candidateCalls(params)), abort: new LinkedAbort([serverSignal]) };
    for (const call of question.calls) call.questions.add(question);
    this.openQuestions.add(question);
    this.questionsChanged(+1);
    let ended: (() => void) | undefined;
    try {
      const tool = onlyTool(question.calls);
      const agent = agentsOf(question.calls);
      const ctx = { server: this.host.config.name, ...(agent ? { agent } : {}), ...(tool ? { tool } : {}), signal: question.abort.signal };
      const byAgent = this.agentHook("elicit", params);
      // Only a question for the person keeps its calls waiting on them; the agent answers its own on the call's stream.
      if (!byAgent) ended = announceQuestion(question.calls);
      if (byAgent) return (await elicitViaAgent(byAgent, waitFor, request, params as Record<string, unknown>, ctx, (line) => this.host.log(line))) as never;
      const answer = await waitFor(request, ctx);
      // The SDK's content type is narrower than Record<string, unknown>; the Inbox checked the values.
      return answerToElicitResult(answer) as Exclude<ElicitResult, { action: "accept" }> | { action: "accept"; content: Record<string, string> };
    } finally {
      // Its readers (the Inbox, an agent's hook) have settled: a signal nobody aborted is reused.
      question.abort.release();
      this.openQuestions.delete(question);
      for (const call of question.calls) call.questions.delete(question);
      this.questionsChanged(-1);
      ended?.();
    }
  }

  private questionsChanged(delta: number): void {
    this.pendingQuestions += delta;
    for (const call of this.activeCalls) call.timer.hold(this.pendingQuestions > 0);
  }

  /**
   * The call the server's request belongs to, when the wire says: the task its relatedTask meta
   * names (`params`), else the call whose async context it arrived in (callScope).
   */
  private owningCall(params?: unknown): ActiveCall | undefined {
    const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    const related = (meta?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined)?.taskId;
    const taskOwner = typeof related === "string" ? this.taskOwners.get(related) : undefined;
    if (taskOwner) return taskOwner;
    const call = this.callScope.getStore();
    return call && (this.activeCalls.has(call) || [...this.taskOwners.values()].includes(call)) ? call : undefined;
  }

  /** The calls a server's request may belong to: the one the wire names, else every call in flight. */
  private candidateCalls(params?: unknown): ActiveCall[] {
    const owner = this.owningCall(params);
    return owner ? [owner] : [...this.activeCalls];
  }

  /**
   * The agent that answers the server's request: that of the call it belongs to, or, when the wire
   * does not say, the one agent session every call in flight comes from. With calls of several
   * agents open, none is guessed: one agent's answer must not go to another's call.
   */
  private agentHook(kind: "sampling" | "roots" | "elicit", params?: unknown): AgentRequest | undefined {
    const calls = this.candidateCalls(params);
    if (new Set(calls.map((c) => c.ctx.session ?? c.agent)).size !== 1) return undefined;
    for (const call of calls) {
      const hook = call.ctx[kind];
      if (hook) return hook;
    }
    return undefined;
  }

  /**
   * roots/list always gets an answer: the roots of the agent whose call it belongs to (or whose
   * roots the server was last told of, while its call is open), else the person's configured
   * roots for this server, else none. Never -32601: a server with no answer allows nothing.
   */
  private async answerRoots(params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    this.rootsAsked = true;
    const owner = this.owningCall();
    const key = owner?.rootsKey ?? this.rootsOf ?? "config";
    const holder = owner ?? [...this.activeCalls].find((c) => c.rootsKey === key && c.ctx.roots);
    try {
      if (holder?.ctx.roots && key !== "config") {
        this.rootsOf = key;
        return await this.askAgent(holder.ctx.roots, params, signal);
      }
      this.rootsOf = "config";
      return { roots: this.host.config.roots ?? [] };
    } finally {
      // The call waiting on this re-fetch goes on only once the answer is written: the SDK sends
      // it a few microtasks after this handler returns, and the raw stdio path writes a call at
      // once, so a call released here could reach the server before its roots did.
      const refetched = this.rootsRefetched;
      if (refetched) setImmediate(refetched);
    }
  }

  /**
   * Before a call goes on: the server must see this call's roots. A server that uses roots and
   * was last given another's is told (notifications/roots/list_changed, on eras that have roots)
   * and its re-fetch awaited, briefly; calls under other roots that are still open are waited for
   * first, since one session holds one set of roots at a time.
   */
  async rootsFor(call: ActiveCall, signal: AbortSignal): Promise<void> {
    if (!this.rootsAsked || !this.host.offers("notifications/roots/list_changed")) return;
    while (this.rootsOf !== call.rootsKey && [...this.activeCalls].some((c) => c !== call && c.rootsKey === this.rootsOf)) {
      if (signal.aborted) throw signal.reason;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.callEnded.delete(wake);
          signal.removeEventListener("abort", wake);
          resolve();
        };
        this.callEnded.add(wake);
        signal.addEventListener("abort", wake, { once: true });
      });
    }
    const client = this.host.client();
    if (this.rootsOf === call.rootsKey || !client) return;
    this.rootsOf = call.rootsKey;
    // A re-fetch, even one later than the wait, shows this server honours the notification.
    const refetched = new Promise<boolean>((resolve) => (this.rootsRefetched = () => ((this.rootsRefetches = true), resolve(true))));
    await client.notification({ method: "notifications/roots/list_changed" });
    const waitMs = this.rootsRefetches === undefined ? ROOTS_FIRST_REFETCH_MS : this.rootsRefetches ? ROOTS_REFETCH_MS : 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const got = await Promise.race([refetched, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)))]);
    clearTimeout(timer);
    if (!got && this.rootsRefetches === undefined) this.rootsRefetches = false;
  }

  /** sampling/createMessage (also as the client's own task): the agent of the call it belongs to answers, else a clear error. */
  async answerSampling(params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const hook = this.agentHook("sampling", params);
    if (!hook) throw Object.assign(new Error(`sampling/createMessage: ${NO_AGENT_CAN_ANSWER}`), { code: -32601 });
    return this.askAgent(hook, params, signal);
  }

  private async askAgent(hook: AgentRequest, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    for (const call of this.activeCalls) call.timer.hold(true);
    try {
      return await hook(params, signal);
    } finally {
      for (const call of this.activeCalls) call.timer.hold(this.pendingQuestions > 0);
    }
  }

  /** Log messages go to the agents whose calls are in flight; everything else to the source. */
  private onNotification(method: string, params: Record<string, unknown>): void {
    if (method === "notifications/message") {
      let delivered = false;
      for (const call of this.activeCalls) {
        if (call.ctx.onlog) {
          call.ctx.onlog(params);
          delivered = true;
        }
      }
      if (delivered) return;
    }
    this.host.notified(method, params);
  }
}
