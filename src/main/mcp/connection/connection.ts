// One configured server: its transport, its SDK client, its tools and its status. Elicitations
// from it go through the bridge to the app's `waitFor`; its failures stay here.
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type Tool,
  type Transport,
} from "@modelcontextprotocol/client";
import { AsyncLocalStorage } from "node:async_hooks";
import { setMaxListeners } from "node:events";
import type { Answer, ServerStatus } from "../../../shared/types";
import { expandEnvSecrets, expandHeaders, sanitize, type ServerConfig } from "../config/config";
import { jsonBoundsProblem, tryStringify } from "../../base/json-bounds";
import { MAX_TOOL_SCHEMA_BYTES, MAX_TOOLS_PER_SERVER, QUIT_GRACE_MS } from "../../../shared/limits";
import { answerToElicitResult, elicitationProblem, elicitationToRequest, elicitResultToAnswer, type ElicitResult } from "../elicit";
import { IdleTimer } from "./idle-timer";
import { LinkedAbort } from "../../base/linked-abort";
import { toToolOutput } from "../result";
import { GroupStdioTransport } from "./stdio-transport";
import { fastCall, type FastCallTarget } from "../call-paths/http-fast";
import { RawCalls } from "../call-paths/stdio-raw";
import { resolveInputs, withInputs } from "../config/inputs";
import type { AgentRequest, ExecuteContext, LoadOptions, McpBackend, McpTool, ToolOutput } from "../types";
import type { WaitFor } from "../../inbox/wait-for";
import { forwardedNotifications, NO_AGENT_CAN_ANSWER } from "../forward";
import { MAX_SIGN_INS_PER_CONNECT } from "../../auth/session";
import type { ServerAuthSession } from "../../auth/types";
import { AgentGone } from "../../inbox/agent-gone";
import { boundedFetch } from "./bounded-fetch";
import { targetOf } from "../server-target";
import { eraHas, eraOf, healthMethod, type Era } from "./era";

export const CLIENT_INFO = { name: "toolnexus-companion", version: "0.1.0" };
export const DEFAULT_MAX_WAIT_MS = 60 * 60 * 1000;
/** -32042: the tool needs the person to open URL(s) first (2025-11-25). */
const URL_ELICITATION_REQUIRED = -32042;
const MAX_URL_RETRIES = 3;
/**
 * How long a call waits for the server to re-fetch roots after notifications/roots/list_changed:
 * the first time, while it is not known whether this server re-fetches at all; then, for one that
 * does, long enough for a loaded machine (a call that went on early would run under the previous
 * agent's roots); for one that did not, not at all (waiting would not change what it holds).
 */
const ROOTS_FIRST_REFETCH_MS = 5_000;
/** How long a failed connect waits for a stdio server's last stderr before wording the failure. */
const STDERR_SETTLE_MS = 500;
const ROOTS_REFETCH_MS = 10_000;

/** A tool call that failed as a protocol error (not a tool result with isError). */
export class ToolCallError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "ToolCallError";
  }
}

interface ActiveCall {
  agent?: string;
  /** Whose roots the server must see during this call: the agent's session, or "config". */
  rootsKey: string;
  /** The tool called, by its name on the server: a question raised during it names it. */
  tool: string;
  /** The caller's hooks (gateway): who answers the server's requests during this call. */
  ctx: ExecuteContext;
  timer: IdleTimer;
  /** Questions raised while this call was in flight; each ends when all its calls have ended. */
  questions: Set<Question>;
}

interface Question {
  calls: Set<ActiveCall>;
  /** Follows the server's cancel; aborted by us when orphaned or when the connection ends. */
  abort: LinkedAbort;
}

/** -32602: an elicitation refused for its params (out of bounds), so the server can tell it from a person's cancel. */
class ElicitationRefused extends Error {
  readonly code = -32602;
}

/** Why a listed tool is dropped, or undefined when it is kept (limits.ts). Never throws. */
export function toolProblem(tool: unknown): string | undefined {
  const bounds = jsonBoundsProblem(tool);
  if (bounds) return bounds;
  const text = tryStringify(tool);
  if (text === undefined) return "it cannot be written as JSON";
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_TOOL_SCHEMA_BYTES) return `its definition is ${bytes} bytes; at most ${MAX_TOOL_SCHEMA_BYTES} are kept`;
  const name = (tool as { name?: unknown }).name;
  if (typeof name !== "string" || name === "") return "it has no name";
  return undefined;
}

/** A server-chosen name as it goes into a log line: one line, bounded. */
function shown(name: unknown): string {
  const text = typeof name === "string" ? name : String(typeof name);
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

/** The SDK's "the person must sign in" (a 401 or a 403 step-up that led to a new authorization URL). */
function isUnauthorized(error: unknown): boolean {
  if (error instanceof UnauthorizedError) return true;
  const e = error as { cause?: unknown; data?: { cause?: unknown } } | undefined;
  return e?.cause instanceof UnauthorizedError || e?.data?.cause instanceof UnauthorizedError;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export class ServerConnection implements McpBackend {
  status: ServerStatus;
  tools: McpTool[] = [];

  private client?: Client;
  private transport?: Transport;
  /** Questions waiting on the person, so a connection that ends can withdraw them. */
  private readonly openQuestions = new Set<Question>();
  private readonly activeCalls = new Set<ActiveCall>();
  /** Elicitation handlers that have not returned: quitting waits (bounded) for their answers. */
  private readonly openHandlers = new Set<Promise<unknown>>();
  /** Messages handed to the transport and not yet written: quitting waits for those too. */
  private readonly pendingSends = new Set<Promise<void>>();
  /**
   * Progress of the calls in flight, by the token each call sent. The SDK's own `onprogress` is
   * not used: it runs a notification's handler a microtask late but settles a response at once,
   * dropping that handler, so a last progress read in the same chunk as its result (stdio under
   * load) was lost. A call's entry here outlives its response until the call's code after it runs.
   */
  private readonly progress = new Map<string, (progress: { progress: number; total?: number; message?: string }) => void>();
  private progressTokens = 0;
  private pendingQuestions = 0;
  private closing = false;
  /** OAuth for this remote server (LoadOptions.auth); its credentials outlive each connection. */
  private readonly auth?: ServerAuthSession;
  /** The transport whose request was refused: its finishAuth redeems the code (it knows the scope asked). */
  private refusedTransport?: Transport;
  private signingIn?: Promise<boolean>;
  /** Ends a sign-in still waiting on the browser when the app quits. */
  private readonly quitting = new AbortController();
  /** A streamable HTTP server in the legacy era: plain tools/calls skip the SDK client (http-fast-call.ts). */
  private fast?: FastCallTarget;
  /** A stdio server in the legacy era: plain tools/calls skip the SDK client's request path (raw-call.ts). */
  private raw?: RawCalls;
  private fastIds = 0;
  /** Tools with an output schema: their calls keep the SDK's path, which checks the result against it. */
  private typedTools = new Set<string>();
  /** Why this connection was closed by us for what the server sent (a message past its bound). */
  private violation?: string;
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

  constructor(
    readonly config: ServerConfig,
    private readonly options: LoadOptions,
    private readonly changed: (what: "status" | "tools") => void,
    /** A notification the gateway passes on to agents (forward.ts lists which). */
    private readonly notified: (method: string, params: Record<string, unknown>) => void = () => {},
  ) {
    this.status = { name: config.name, state: config.enabled ? "connecting" : "disabled", toolCount: 0, target: targetOf(config), ...(config.sessionOnly ? { sessionOnly: true } : {}) };
    if (config.type === "remote" && options.auth) {
      this.auth = options.auth.session({ name: config.name, url: config.url, oauth: config.oauth });
      this.auth.attach({ signIn: () => this.signIn(), signedOut: () => this.signedOut() });
    }
  }

  async connect(): Promise<void> {
    // A server that needs sign-in asks in the background: loadMcp does not wait on a person.
    if ((await this.attempt()) === "needs-sign-in") this.signIn().catch(() => undefined);
  }

  /**
   * Asks the person to sign in (one question at a time), redeems the code, and connects again;
   * a connect refused again (a step-up to more scopes) asks again, at most
   * MAX_SIGN_INS_PER_CONNECT times. Resolves true once connected; never rejects.
   */
  signIn(agent?: string): Promise<boolean> {
    this.signingIn ??= this.runSignIn(agent).finally(() => {
      this.signingIn = undefined;
    });
    return this.signingIn;
  }

  private async runSignIn(agent?: string): Promise<boolean> {
    const waitFor = this.options.waitFor;
    const auth = this.auth;
    if (!waitFor || !auth) return false;
    for (let round = 1; ; round++) {
      const transport = this.refusedTransport ?? this.transport;
      try {
        await auth.signIn({ waitFor, agent, signal: this.quitting.signal, finish: transport ? (params) => finishAuthOn(transport, params) : undefined });
      } catch (error) {
        const message = `sign-in did not complete: ${errorMessage(error)}`;
        this.log(`${this.config.name}: ${message}`);
        if (this.status.state !== "connected") this.setStatus({ state: "needs-sign-in", error: message });
        return false;
      }
      this.refusedTransport = undefined;
      // A step-up during a call: the connection lives on, the call retries with the new token.
      if (this.status.state === "connected" || this.closing) return this.status.state === "connected";
      const outcome = await this.attempt();
      if (outcome !== "needs-sign-in") return outcome === "connected";
      if (round >= MAX_SIGN_INS_PER_CONNECT) {
        // needs-sign-in, not failed: a supervisor restarting a failed server would ask again and again.
        this.setStatus({ state: "needs-sign-in", error: `sign-in did not complete: still refused after ${round} sign-ins (the server may want scopes its authorization server does not grant)` });
        return false;
      }
    }
  }

  /** Sign-out deleted every stored item: this connection's token is gone too. */
  private async signedOut(): Promise<void> {
    await this.shutdown();
    this.tools = [];
    this.status.toolCount = 0;
    this.setStatus({ state: "needs-sign-in", error: "signed out", signedIn: false });
    this.changed("tools");
  }

  private async attempt(): Promise<"connected" | "failed" | "needs-sign-in"> {
    if (!this.config.enabled) return "failed";
    this.violation = undefined;
    const { timeout } = this.config;
    let phase = "connect";
    try {
      await this.open(timeout);
      phase = "tools/list";
      const listed = await withDeadline(this.client!.listTools(undefined, { timeout }), timeout, "tools/list");
      this.setTools(listed.tools);
      const signedIn = this.auth ? { signedIn: await this.auth.signedIn() } : {};
      this.setStatus({ state: "connected", error: undefined, protocol: this.client!.getNegotiatedProtocolVersion(), ...signedIn });
      return "connected";
    } catch (error) {
      if (this.auth && isUnauthorized(error) && !this.closing) {
        this.refusedTransport = this.transport;
        await this.shutdown();
        const host = this.auth.authorizationHost;
        this.setStatus({ state: "needs-sign-in", error: `sign-in needed${host ? ` at ${host}` : ""}` });
        return "needs-sign-in";
      }
      // What a stdio server said before it died is part of why: let its stderr finish (briefly).
      if (this.transport instanceof GroupStdioTransport) await this.transport.outputSettled(STDERR_SETTLE_MS);
      const message = this.describeFailure(error, phase);
      await this.shutdown();
      this.setStatus({ state: "failed", error: message });
      return "failed";
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.quitting.abort(new Error("the companion is shutting down"));
    await this.tellServerWeQuit();
    await this.shutdown();
  }

  /**
   * Quitting tells the server, within QUIT_GRACE_MS in all: every open question is withdrawn so
   * its handler returns `cancel`, the SDK's responses are written (stdio) or posted (HTTP), and a
   * streamable HTTP session is ended with its DELETE. Only then does the transport close.
   */
  private async tellServerWeQuit(): Promise<void> {
    if (!this.client) return;
    const deadline = Date.now() + QUIT_GRACE_MS;
    const left = () => Math.max(1, deadline - Date.now());
    const settle = (work: Promise<unknown>[], what: string) =>
      withDeadline(Promise.allSettled(work), left(), what).catch((error) => this.log(`${this.config.name}: ${errorMessage(error)}`));
    if (this.openHandlers.size > 0) {
      // The Inbox has usually cancelled them already (core closes it first); this covers the rest.
      this.withdrawQuestions(new Error("the companion is shutting down"));
      await settle([...this.openHandlers], "answering its open questions");
      // The SDK sends a handler's result a few microtasks after it returns.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (this.pendingSends.size > 0) await settle([...this.pendingSends], "sending its last answers");
    const transport = this.transport;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      await settle([transport.terminateSession()], "ending its session");
    }
  }

  /** Connects the client, falling back from streamable HTTP to SSE for remote servers. */
  private async open(timeout: number): Promise<void> {
    // VS Code `${input:ID}`: from the keychain, or asked once through the Inbox (inputs.ts).
    const inputs = await resolveInputs(this.config, this.options, this.quitting.signal);
    const config = withInputs(this.config, inputs);
    if (config.type === "local") {
      const env = await expandEnvSecrets(config.env, this.options.secret);
      const transport = new GroupStdioTransport({ command: config.command, args: config.args, env, cwd: config.cwd, onTooLarge: (error) => this.tooLarge(error) });
      await this.openWith(transport, "stdio", timeout);
      if (isLegacyEra(this.client?.getNegotiatedProtocolVersion())) this.raw = new RawCalls(transport);
      return;
    }
    const headers = await expandHeaders(config.headers, this.options.env ?? process.env, this.options.secret, inputs);
    // A configured Authorization header is the person's chosen credential: a 401 then means that
    // credential is wrong, not "start OAuth".
    const authProvider = Object.keys(headers).some((name) => name.toLowerCase() === "authorization") ? undefined : this.auth?.provider;
    const url = new URL(config.url);
    // Every response body is bounded (bounded-fetch.ts); one cut closes the connection with why.
    const bounded = boundedFetch(quietFetch, { onTooLarge: (error) => this.tooLarge(error) });
    if (config.transport !== "sse") {
      // A 401 means the server speaks streamable HTTP and wants sign-in: whatever fails after
      // that (discovery, a foreign resource, an issuer mismatch) is the error to show, not SSE's.
      let challenged = false;
      const seeingChallenges: typeof fetch = async (input, init) => {
        const response = await bounded(input, init);
        if (response.status === 401 && authProvider) challenged = true;
        return response;
      };
      try {
        const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: seeingChallenges, authProvider });
        await this.openWith(transport, "streamable-http", timeout);
        this.fast = fastTarget(url, headers, transport, authProvider, this.client?.getNegotiatedProtocolVersion());
        return;
      } catch (error) {
        // A server that wants sign-in said so over streamable HTTP; SSE would only hide it.
        if (config.transport === "streamable-http" || this.closing || challenged || this.violation || isUnauthorized(error)) throw error;
        this.log(`${config.name}: streamable HTTP failed (${errorMessage(error)}); trying SSE`);
        await this.shutdown();
      }
    }
    await this.openWith(
      new SSEClientTransport(url, { requestInit: { headers }, eventSourceInit: { fetch: withHeaders(headers, bounded) }, authProvider }),
      "sse",
      timeout,
    );
  }

  private async openWith(transport: Transport, kind: ServerStatus["transport"], timeout: number): Promise<void> {
    const waitFor = this.options.waitFor;
    this.trackSends(transport);
    const client = new Client(CLIENT_INFO, {
      // Without a resolver the capability is not advertised, so a compliant server never elicits.
      // Sampling is answered by the agent whose call is in flight (gateway), else refused; roots
      // always (answerRoots), and a change of whose roots the server must see is told (listChanged).
      capabilities: waitFor ? { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } } : { sampling: {}, roots: { listChanged: true } },
      versionNegotiation: { mode: this.config.protocol, probe: { timeoutMs: timeout } },
      listChanged: {
        tools: {
          onChanged: (error, tools) => {
            if (error) this.log(`${this.config.name}: refreshing tools failed: ${errorMessage(error)}`);
            else if (tools) this.setTools(tools);
          },
        },
      },
    });
    if (waitFor) client.setRequestHandler("elicitation/create", (request, ctx) => this.onElicitation(waitFor, request.params, ctx.mcpReq.signal));
    client.setRequestHandler("sampling/createMessage", (request, ctx) => this.askSampling(request.params as Record<string, unknown>, ctx.mcpReq.signal) as never);
    client.setRequestHandler("roots/list", (request, ctx) => this.answerRoots((request.params ?? {}) as Record<string, unknown>, ctx.mcpReq.signal) as never);
    for (const method of forwardedNotifications) {
      client.setNotificationHandler(method, (notification) => this.onNotification(method, (notification.params ?? {}) as Record<string, unknown>));
    }
    // Replaces the SDK's handler (see `progress`); a token no call of ours sent is ignored.
    client.setNotificationHandler("notifications/progress", (notification) => {
      const { progressToken, progress, total, message } = notification.params;
      this.progress.get(String(progressToken))?.({ progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) });
    });
    this.client = client;
    this.transport = transport;
    this.status.transport = kind;
    await withDeadline(client.connect(transport, { timeout }), timeout + 1000, "initialize");
    client.onclose = () => this.onClosed();
  }

  /** Every send, counted until written, so quitting can wait for the last answers to leave. */
  private trackSends(transport: Transport): void {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const sending = send(message, options);
      this.pendingSends.add(sending);
      const done = () => void this.pendingSends.delete(sending);
      sending.then(done, done);
      return sending;
    };
  }

  /**
   * A server's elicitation: refused with -32602 when its params are out of bounds (it never
   * reaches the Inbox), else bridged; open handlers are kept so quitting can wait for them.
   */
  private onElicitation(waitFor: WaitFor, params: unknown, serverSignal: AbortSignal) {
    const problem = elicitationProblem(params);
    if (problem) {
      this.log(`${this.config.name}: ${problem}; it was refused and not shown`);
      throw new ElicitationRefused(problem);
    }
    const handling = this.elicit(waitFor, params, serverSignal);
    this.openHandlers.add(handling);
    const done = () => void this.openHandlers.delete(handling);
    handling.then(done, done);
    return handling;
  }

  /** The bridge, inline: elicitation → Request → waitFor → Answer → ElicitResult. */
  private async elicit(waitFor: WaitFor, params: unknown, serverSignal: AbortSignal) {
    const request = elicitationToRequest(params as Record<string, unknown>);
    // A pushed elicitation does not say which call it belongs to, so it belongs to every call in
    // flight; when all of them have ended (timed out, abandoned) nobody waits for the answer.
    // One controller per question, following only the server's signal: AbortSignal listeners are
    // the costliest part of this path, and the connection's end is handled through openQuestions.
    const question: Question = { calls: new Set(this.candidateCalls()), abort: new LinkedAbort([serverSignal]) };
    for (const call of question.calls) call.questions.add(question);
    this.openQuestions.add(question);
    this.questionsChanged(+1);
    try {
      const tool = onlyTool(question.calls);
      const agent = agentsOf(question.calls);
      const ctx = { server: this.config.name, ...(agent ? { agent } : {}), ...(tool ? { tool } : {}), signal: question.abort.signal };
      const byAgent = this.agentHook("elicit");
      if (byAgent) return (await this.elicitViaAgent(byAgent, waitFor, request, params as Record<string, unknown>, ctx)) as never;
      const answer = await waitFor(request, ctx);
      // The SDK's content type is narrower than Record<string, unknown>; the Inbox checked the values.
      return answerToElicitResult(answer) as Exclude<ElicitResult, { action: "accept" }> | { action: "accept"; content: Record<string, string> };
    } finally {
      // Its readers (the Inbox, an agent's hook) have settled: a signal nobody aborted is reused.
      question.abort.release();
      this.openQuestions.delete(question);
      for (const call of question.calls) call.questions.delete(question);
      this.questionsChanged(-1);
    }
  }

  /**
   * The agent answers (its person chose so) while the companion still shows the question and
   * records it: the agent's result goes to the server as the agent gave it, and settles the
   * question as the agent's. If the agent fails, the question stays with the person; if the
   * person answers first (or a rule does), the agent's request is cancelled and theirs is sent.
   */
  private async elicitViaAgent(
    byAgent: AgentRequest,
    waitFor: WaitFor,
    request: ReturnType<typeof elicitationToRequest>,
    params: Record<string, unknown>,
    ctx: Parameters<WaitFor>[1],
  ): Promise<Record<string, unknown>> {
    const agentAbort = new LinkedAbort([ctx.signal]);
    const personAbort = new LinkedAbort([ctx.signal]);
    const agent = ctx.agent ?? "the agent";
    /** The agent's result, once it answered with one the server can take. */
    let agentResult: Record<string, unknown> | undefined;
    const fromAgent = byAgent(params, agentAbort.signal).then(
      (result): Answer | undefined => {
        const answer = elicitResultToAnswer(request.id, result);
        if (answer) agentResult = result;
        return answer;
      },
      (error): undefined => {
        if (!agentAbort.signal.aborted) this.log(`${this.config.name}: ${agent} did not answer an elicitation (${errorMessage(error)}); asking the person`);
        return undefined;
      },
    );
    try {
      const fromPerson = waitFor(request, { ...ctx, signal: personAbort.signal, agentAnswer: { agent, answer: fromAgent } });
      fromPerson.catch(() => {});
      // The agent's answer wins only if it comes; a failed agent leaves the person's question open.
      const agentAnswered = fromAgent.then((answer) => (answer ? "agent" : new Promise<never>(() => {})));
      const first = await Promise.race([agentAnswered, fromPerson]);
      // The Inbox settles on the agent's answer before this runs (it is told first), so whichever
      // promise won the race, an agent that answered is the one that answered. A person's answer
      // comes without I/O from the agent in between, so it is never mistaken for the agent's.
      if (agentResult) {
        // A resolver that does not settle on the agent's answer withdraws the question instead.
        personAbort.abort(new Error(`${agent} answered it`));
        return agentResult;
      }
      agentAbort.abort(new Error("the person answered it in the companion"));
      return answerToElicitResult(first as Answer) as Record<string, unknown>;
    } finally {
      agentAbort.dispose();
      personAbort.dispose();
    }
  }

  private questionsChanged(delta: number): void {
    this.pendingQuestions += delta;
    for (const call of this.activeCalls) call.timer.hold(this.pendingQuestions > 0);
  }

  /**
   * Keeps the listed tools that are within bounds (limits.ts), at most MAX_TOOLS_PER_SERVER: a bad
   * tool is dropped with a log line, and the server stays connected with the others.
   */
  private boundedTools(listed: Tool[]): Tool[] {
    const kept: Tool[] = [];
    for (const tool of listed) {
      if (kept.length >= MAX_TOOLS_PER_SERVER) {
        this.log(`${this.config.name}: offers ${listed.length} tools; only the first ${MAX_TOOLS_PER_SERVER} within bounds are kept`);
        break;
      }
      const problem = toolProblem(tool);
      if (problem) this.log(`${this.config.name}: tool ${shown((tool as { name?: unknown })?.name)} was dropped: ${problem}`);
      else kept.push(tool);
    }
    return kept;
  }

  /**
   * Whether an agent can be offered the tool. An MCP Apps tool whose `_meta.ui.visibility` leaves
   * out "model" is for its app alone (its `ui://` resources stay readable); a tool that needs a
   * task (`execution.taskSupport: "required"`) would fail every plain call, and tasks are not
   * bridged yet, so it is left out with a log line.
   */
  private offeredToAgents(tool: Tool): boolean {
    const visibility = (tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui?.visibility;
    if (Array.isArray(visibility) && !visibility.includes("model")) return false;
    if ((tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport === "required") {
      this.log(`${this.config.name}: tool ${shown(tool.name)} is not offered: it runs only as a task (execution.taskSupport "required"), which the companion does not bridge yet`);
      return false;
    }
    return true;
  }

  private setTools(listed: Tool[]): void {
    const server = sanitize(this.config.name);
    const tools = this.boundedTools(Array.isArray(listed) ? listed : []).filter((tool) => this.offeredToAgents(tool));
    this.tools = tools.map((tool) => ({
      name: `${server}_${sanitize(tool.name)}`,
      description: tool.description ?? "",
      inputSchema: (tool.inputSchema ?? { type: "object" }) as Record<string, unknown>,
      source: "mcp" as const,
      server: this.config.name,
      tool: tool.name,
      title: tool.title,
      definition: tool as unknown as Record<string, unknown>,
      execute: (args: Record<string, unknown>, ctx?: ExecuteContext) => this.execute(tool.name, args, ctx),
    }));
    this.typedTools = new Set(tools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name));
    this.status.toolCount = this.tools.length;
    this.changed("tools");
  }

  async execute(tool: string, args: Record<string, unknown>, ctx: ExecuteContext = {}): Promise<ToolOutput> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.callOnce(tool, args, ctx);
      } catch (error) {
        if (isUnauthorized(error)) {
          // The server wants (more) authorization for this call: ask, then retry the call.
          if (attempt < MAX_SIGN_INS_PER_CONNECT && (await this.signIn(ctx.agent))) continue;
          throw new ToolCallError(`${this.config.name}: ${tool} needs sign-in${this.status.error ? `: ${this.status.error}` : ""}`);
        }
        const code = (error as { code?: unknown }).code;
        if (code !== URL_ELICITATION_REQUIRED || !this.options.waitFor || attempt >= MAX_URL_RETRIES) throw error;
        // The server needs the person to visit URL(s) first; ask, and retry only if they agreed.
        const elicitations = ((error as { data?: { elicitations?: unknown[] } }).data?.elicitations ?? []) as Record<string, unknown>[];
        const answers = [];
        for (const e of elicitations) {
          const params = { ...e, mode: "url" };
          const problem = elicitationProblem(params);
          if (problem) throw new ToolCallError(`${this.config.name}: ${tool} needs a browser step that was refused: ${problem}`, URL_ELICITATION_REQUIRED);
          answers.push(await this.elicit(this.options.waitFor, params, ctx.signal ?? new AbortController().signal));
        }
        if (elicitations.length === 0 || answers.some((a) => a.action !== "accept")) {
          throw new ToolCallError(`${this.config.name}: ${tool} needs a browser step that was not completed`, URL_ELICITATION_REQUIRED);
        }
      }
    }
  }

  private async callOnce(tool: string, args: Record<string, unknown>, ctx: ExecuteContext): Promise<ToolOutput> {
    const client = this.client;
    if (!client || this.status.state !== "connected") {
      throw new ToolCallError(`server "${this.config.name}" is not connected${this.status.error ? `: ${this.status.error}` : ""}`);
    }
    const maxWait = this.options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    const idleMs = this.config.callTimeout;
    const abort = new LinkedAbort([ctx.signal]);
    const call: ActiveCall = {
      agent: ctx.agent,
      rootsKey: ctx.roots ? `agent:${ctx.session ?? ctx.agent ?? ""}` : "config",
      tool,
      ctx,
      timer: new IdleTimer(idleMs, () => abort.abort(new ToolCallError(`${this.config.name}: ${tool} got no response for ${idleMs} ms`))),
      questions: new Set(),
    };
    call.timer.hold(this.pendingQuestions > 0);
    const signal = abort.signal;
    this.activeCalls.add(call);
    // Progress is asked for only when the caller wants it: a progress token makes a streamable
    // HTTP server answer with an event stream, which costs a millisecond or two.
    const onprogress = ctx.onprogress;
    const progressToken = onprogress ? `call-${++this.progressTokens}` : undefined;
    if (progressToken !== undefined && onprogress) {
      this.progress.set(progressToken, (progress) => {
        call.timer.touch();
        onprogress(progress);
      });
    }
    try {
      return await this.callScope.run(call, () => this.dispatch(client, call, tool, args, abort, maxWait, progressToken));
    } catch (error) {
      if (signal.aborted && signal.reason instanceof ToolCallError) throw signal.reason;
      if (error instanceof ToolCallError || isUnauthorized(error)) throw error;
      const e = error as { code?: number; data?: unknown };
      throw new ToolCallError(`${this.config.name}: ${tool} failed: ${errorMessage(error)}`, e.code, e.data);
    } finally {
      if (progressToken !== undefined) this.progress.delete(progressToken);
      call.timer.stop();
      abort.dispose();
      this.activeCalls.delete(call);
      const waiting = [...this.callEnded];
      this.callEnded.clear();
      for (const wake of waiting) wake();
      for (const question of call.questions) {
        question.calls.delete(call);
        // The agent going away is said as such (AgentGone), so the page can name it.
        if (question.calls.size === 0) question.abort.abort(signal.reason instanceof AgentGone ? signal.reason : new Error(`the call to ${tool} that asked this question has ended`));
      }
      // Read for the last time above; the transports took their listeners off when the call ended.
      abort.release();
    }
  }

  /** The call on the wire, in the call's async context (callScope), after its roots are in place. */
  private async dispatch(client: Client, call: ActiveCall, tool: string, args: Record<string, unknown>, abort: LinkedAbort, maxWait: number, progressToken: string | undefined): Promise<ToolOutput> {
    const signal = abort.signal;
    await this.rootsFor(call, signal);
    const fast = this.fast;
    const raw = this.raw;
    if ((fast || raw) && progressToken === undefined && !this.typedTools.has(tool)) {
      const result = await this.callFast(client, fast ?? raw!, tool, args, abort, maxWait);
      if (result) return toToolOutput(this.config.name, tool, result);
    }
    const result = await client.callTool(
      { name: tool, arguments: args, ...(progressToken !== undefined ? { _meta: { progressToken } } : {}) },
      {
        signal,
        // Our idle timer bounds the call; the SDK's wall-clock bound is only the hard maximum.
        timeout: maxWait,
        maxTotalTimeout: maxWait,
      },
    );
    return toToolOutput(this.config.name, tool, result as unknown as Record<string, unknown>);
  }

  /**
   * The call as one raw POST (http-fast-call.ts); undefined when the server refused it in a way
   * the SDK recovers from (sign-in, a lost session), so the caller retries through the SDK.
   */
  private async callFast(client: Client, via: FastCallTarget | RawCalls, tool: string, args: Record<string, unknown>, abort: LinkedAbort, maxWait: number) {
    let id = `tnc-${++this.fastIds}`;
    const signal = abort.signal;
    // The SDK's wall-clock maximum; the idle timer does the everyday bounding.
    const hardStop = setTimeout(() => abort.abort(new ToolCallError(`${this.config.name}: ${tool} did not finish within ${maxWait} ms`)), maxWait);
    try {
      if (via instanceof RawCalls) {
        const call = via.call({ name: tool, arguments: args }, signal);
        id = call.id;
        return await call.result;
      }
      const outcome = await fastCall(via, id, { name: tool, arguments: args }, signal);
      return outcome.kind === "result" ? outcome.result : undefined;
    } catch (error) {
      // As the SDK does for a request it gives up on: the server may stop working on it.
      if (signal.aborted) {
        const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason);
        void client.notification({ method: "notifications/cancelled", params: { requestId: id, reason } }).catch(() => {});
      }
      throw error;
    } finally {
      clearTimeout(hardStop);
    }
  }

  get name(): string {
    return this.config.name;
  }

  /** What the server said it offers at initialize (McpBackend). */
  capabilities(): Record<string, unknown> | undefined {
    return this.status.state === "connected" ? (this.client?.getServerCapabilities() as Record<string, unknown> | undefined) : undefined;
  }

  /** The era this server negotiated (era.ts); undefined while not connected. */
  era(): Era | undefined {
    return this.client ? eraOf(this.client.getNegotiatedProtocolVersion()) : undefined;
  }

  /** Whether the negotiated era has `method`: what it lacks is never sent (McpBackend). */
  offers(method: string): boolean {
    return this.status.state === "connected" && eraHas(this.era(), method);
  }

  /**
   * One health check in the request the era offers (era.ts), or none (resolves at once) when it
   * offers none; rejects as the request does.
   */
  async checkHealth(signal: AbortSignal): Promise<void> {
    const method = healthMethod(this.era());
    if (method) await this.forward(method, undefined, { signal });
  }

  /** One request through the client (McpBackend): resources, prompts, completions, logging. */
  async forward(method: string, params: Record<string, unknown> | undefined, options: { signal?: AbortSignal } = {}): Promise<Record<string, unknown>> {
    const client = this.client;
    if (!client || this.status.state !== "connected") {
      throw new ToolCallError(`server "${this.config.name}" is not connected${this.status.error ? `: ${this.status.error}` : ""}`);
    }
    const maxWait = this.options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    return (await client.request({ method, params } as never, { signal: options.signal, timeout: Math.min(maxWait, this.config.callTimeout) })) as Record<string, unknown>;
  }

  /** The call in flight the server's request belongs to, when the wire says (callScope). */
  private owningCall(): ActiveCall | undefined {
    const call = this.callScope.getStore();
    return call && this.activeCalls.has(call) ? call : undefined;
  }

  /** The calls a server's request may belong to: the one the wire names, else every call in flight. */
  private candidateCalls(): ActiveCall[] {
    const owner = this.owningCall();
    return owner ? [owner] : [...this.activeCalls];
  }

  /**
   * The agent that answers the server's request: that of the call it belongs to, or, when the wire
   * does not say, the one agent session every call in flight comes from. With calls of several
   * agents open, none is guessed: one agent's answer must not go to another's call.
   */
  private agentHook(kind: "sampling" | "roots" | "elicit"): AgentRequest | undefined {
    const calls = this.candidateCalls();
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
      return { roots: this.config.roots ?? [] };
    } finally {
      this.rootsRefetched?.();
    }
  }

  /**
   * Before a call goes on: the server must see this call's roots. A server that uses roots and
   * was last given another's is told (notifications/roots/list_changed, on eras that have roots)
   * and its re-fetch awaited, briefly; calls under other roots that are still open are waited for
   * first, since one session holds one set of roots at a time.
   */
  private async rootsFor(call: ActiveCall, signal: AbortSignal): Promise<void> {
    if (!this.rootsAsked || !this.offers("notifications/roots/list_changed")) return;
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
    if (this.rootsOf === call.rootsKey || !this.client) return;
    this.rootsOf = call.rootsKey;
    // A re-fetch, even one later than the wait, shows this server honours the notification.
    const refetched = new Promise<boolean>((resolve) => (this.rootsRefetched = () => ((this.rootsRefetches = true), resolve(true))));
    await this.client.notification({ method: "notifications/roots/list_changed" });
    const waitMs = this.rootsRefetches === undefined ? ROOTS_FIRST_REFETCH_MS : this.rootsRefetches ? ROOTS_REFETCH_MS : 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const got = await Promise.race([refetched, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)))]);
    clearTimeout(timer);
    if (!got && this.rootsRefetches === undefined) this.rootsRefetches = false;
  }

  /** sampling/createMessage: the agent of the call it belongs to answers, else a clear error. */
  private async askSampling(params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const hook = this.agentHook("sampling");
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
    this.notified(method, params);
  }

  /** The server went away on its own: fail it, withdraw its questions, drop its tools. */
  private onClosed(): void {
    if (this.closing) return;
    const transport = this.transport;
    let detail = "the connection closed";
    if (transport instanceof GroupStdioTransport) {
      const exit = transport.exitInfo();
      if (exit) detail = exit.signal ? `the server process was killed (${exit.signal})` : `the server process exited with code ${exit.code}`;
      const tail = transport.stderrTail();
      if (tail) detail += `; its last output: ${tail.split("\n").slice(-3).join(" | ")}`;
    }
    if (this.violation) detail = this.violation;
    this.withdrawQuestions(new Error(detail));
    this.raw?.closeAll(new Error(detail));
    this.raw = undefined;
    this.tools = [];
    this.status.toolCount = 0;
    this.client = undefined;
    this.setStatus({ state: "failed", error: detail });
    this.changed("tools");
  }

  /** A message was cut at its bound (an HTTP body, a stdio line): nothing more from this
   * connection can be trusted. */
  private tooLarge(error: Error): void {
    if (this.violation) return;
    this.violation = error.message;
    this.log(`${this.config.name}: ${error.message}; closing the connection`);
    void this.transport?.close();
  }

  private describeFailure(error: unknown, phase: string): string {
    if (this.violation) return this.violation;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && this.config.type === "local") return `command "${this.config.command}" was not found`;
    if (code === "EACCES" && this.config.type === "local") return `command "${this.config.command}" is not executable`;
    let message = errorMessage(error);
    if (/timed out|did not finish/i.test(message)) {
      const step = phase === "connect" ? "initialize" : phase;
      message = `${step} got no answer within ${this.config.timeout} ms`;
    }
    const transport = this.transport;
    if (transport instanceof GroupStdioTransport) {
      const exit = transport.exitInfo();
      // The pipe's own words for a process that is gone ("Connection closed", "not running") race
      // each other; how it ended is the one fact to say.
      if (exit && /Connection closed|is not running|EPIPE/.test(message)) message = exit.signal ? `the server process was killed (${exit.signal})` : `the server process exited with code ${exit.code}`;
      else if (exit && exit.code !== null) message += ` (the server process exited with code ${exit.code})`;
      const tail = transport.stderrTail();
      if (tail) message += `; its last output: ${tail.split("\n").slice(-3).join(" | ")}`;
    }
    return message;
  }

  private withdrawQuestions(reason: Error): void {
    for (const question of this.openQuestions) question.abort.abort(reason);
  }

  private async shutdown(): Promise<void> {
    this.fast = undefined;
    this.raw?.closeAll(new Error("the server connection closed"));
    this.raw = undefined;
    this.withdrawQuestions(new Error("the server connection closed"));
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    if (client) client.onclose = undefined;
    try {
      await (client ? client.close() : transport?.close());
    } catch {
      // Closing a half-open connection may throw; the transport below still ends the process.
    }
    if (transport && client) await transport.close().catch(() => undefined);
  }

  private setStatus(patch: Partial<ServerStatus>): void {
    this.status = { ...this.status, ...patch };
    if (patch.error === undefined && "error" in patch) delete this.status.error;
    this.changed("status");
  }

  private log(line: string): void {
    this.options.log?.(line);
  }
}

/**
 * The streamable HTTP transport passes its one long-lived abort signal to every POST, and fetch
 * (undici) hangs a listener on it per request that only garbage collection removes. Past 1500 of
 * them Node builds a MaxListenersExceededWarning (an Error with a stack, written to stderr) on
 * every further call: under load that cost more than the call itself. The listeners are still
 * collected; lifting the cap on that signal only stops the warnings.
 */
const unlimited = new WeakSet<AbortSignal>();
const quietFetch: typeof fetch = (input, init) => {
  const signal = init?.signal;
  if (signal && !unlimited.has(signal)) {
    setMaxListeners(0, signal);
    unlimited.add(signal);
  }
  return fetch(input, init);
};

/** A revision before the 2026-07-28 wire (revision ids are ISO dates): tools/call is a plain JSON-RPC request. */
function isLegacyEra(version: string | undefined): boolean {
  return version !== undefined && version < "2026-07-28";
}

/** The fast path's view of a streamable HTTP connection, or undefined when the call must take the SDK's path. */
function fastTarget(
  url: URL,
  headers: Record<string, string>,
  transport: StreamableHTTPClientTransport,
  authProvider: ServerAuthSession["provider"] | undefined,
  version: string | undefined,
): FastCallTarget | undefined {
  // The 2026-07-28 wire (revision ids are ISO dates) carries more than a JSON-RPC POST; DPoP
  // signs each request. Both stay with the SDK.
  if (!isLegacyEra(version) || authProvider?.dpop) return undefined;
  return {
    url,
    headers,
    session: () => ({ sessionId: transport.sessionId, protocolVersion: transport.protocolVersion }),
    token: authProvider ? async () => (await authProvider.tokens())?.access_token : undefined,
    deliver: (message) => transport.onmessage?.(message as never),
  };
}

/** Redeems a sign-in's callback on the transport that was refused (it knows the scope it asked for). */
async function finishAuthOn(transport: Transport | undefined, params: URLSearchParams): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport || transport instanceof SSEClientTransport) return transport.finishAuth(params);
  throw new Error("no remote transport to finish the sign-in on");
}

/**
 * The SSE transport's GET goes through eventsource's fetch; headers must ride there too. The
 * transport hands a `Headers` object (with its Accept and, once signed in, Authorization): spread
 * as a plain object it would be empty, so merge, keeping the transport's own values.
 */
function withHeaders(headers: Record<string, string>, base: typeof fetch) {
  return (url: string | URL, init?: RequestInit) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
    return base(url, { ...init, headers: merged });
  };
}

/**
 * Who a question is asked for: the agent of each call it may belong to. When the wire does not
 * say which (two calls open on one stdio server), every one of them is named: "a or b".
 */
function agentsOf(calls: Iterable<ActiveCall>): string | undefined {
  const agents = [...new Set([...calls].map((c) => c.agent).filter((a): a is string => !!a))];
  return agents.length > 0 ? agents.join(" or ") : undefined;
}

/** The tool a pushed question belongs to, when every call in flight is of that one tool. */
function onlyTool(calls: Iterable<ActiveCall>): string | undefined {
  let tool: string | undefined;
  for (const call of calls) {
    if (tool !== undefined && call.tool !== tool) return undefined;
    tool = call.tool;
  }
  return tool;
}
