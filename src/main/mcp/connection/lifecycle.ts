// One configured server: its transport, its SDK client, its tools and its status, from connect
// to close, and connected again after a sign-in or a restart (supervisor.ts). While connected,
// what the server asks goes through server-requests.ts, tool calls through calls.ts on the call
// path picked at connect (call-paths/choose.ts); sign-in is sign-in.ts, the tools list
// tool-listing.ts, the transports transports.ts, its tasks tasks.ts. Its failures stay here.
import { Client, StreamableHTTPClientTransport, type CallToolResult, type Tool, type Transport } from "@modelcontextprotocol/client";
import type { ServerStatus } from "../../../shared/types";
import { QUIT_GRACE_MS } from "../../../shared/limits";
import { expandEnvSecrets, expandHeaders, type ServerConfig } from "../config/config";
import { resolveInputs, withInputs } from "../config/inputs";
import { targetOf } from "../server-target";
import type { ExecuteContext, LoadOptions, McpBackend, McpTool } from "../types";
import { ToolCallError, type CallPath } from "../call-paths/call-path";
import { chooseCallPath } from "../call-paths/choose";
import { executeTool, type CallsHost } from "./calls";
import { eraHas, eraOf, healthMethod, type Era } from "./era";
import { withDeadline } from "./deadline";
import { closedDetail, connectFailure } from "./failure";
import { ServerRequests } from "./server-requests";
import { isUnauthorized, SignIn, type Attempt } from "./sign-in";
import { GroupStdioTransport } from "./stdio-transport";
import { listedTools } from "./tool-listing";
import { authProviderFor, sseTransport, stdioTransport, streamableTransport, type RemoteSetting } from "./transports";
import { bindClientTasks, closeTaskWire, ConnectionTasks } from "./tasks";
import { receiverCapability } from "../tasks/receiver";
import { memoryLedger } from "../tasks/ledger";
import type { TaskWire } from "../tasks/wire";
import type { TaskRecord } from "../../../shared/tasks";
import type { TaskReceiverBinding } from "@modelcontextprotocol/ext-tasks/receiver";
import { errorMessage } from "../../../shared/unknown-value";

export const CLIENT_INFO = { name: "toolnexus-companion", version: "0.1.0" };
export const DEFAULT_MAX_WAIT_MS = 60 * 60 * 1000;
/** How long a failed connect waits for a stdio server's last stderr before wording the failure. */
const STDERR_SETTLE_MS = 500;

export class ServerConnection implements McpBackend {
  status: ServerStatus;
  tools: McpTool[] = [];

  private client?: Client;
  private transport?: Transport;
  /** How this connection's tool calls reach the server: picked once per connect (choose.ts). */
  private callPath?: CallPath;
  /** Messages handed to the transport and not yet written: quitting waits for those too. */
  private readonly pendingSends = new Set<Promise<void>>();
  private closing = false;
  /** OAuth for this remote server (LoadOptions.auth): the sign-in and its session. */
  private readonly auth?: SignIn;
  /** Ends a sign-in still waiting on the browser when the app quits. */
  private readonly quitting = new AbortController();
  /** Tools with an output schema: their calls keep the SDK's path, which checks the result against it. */
  private typedTools = new Set<string>();
  /** Why this connection was closed by us for what the server sent (a message past its bound). */
  private violation?: string;
  private readonly requests: ServerRequests;
  private readonly calls: CallsHost;
  /** Tasks (tasks.ts): their wire, picked at connect; the tools that go as tasks; the receiver of the server's own. */
  readonly tasks: ConnectionTasks;
  private taskWire?: TaskWire;
  private taskTools = new Set<string>();
  private receiver?: TaskReceiverBinding;
  /** Aborted when the current connection ends: followed tasks stop (and stay live, to resume). */
  private lifetime = new AbortController();

  constructor(
    readonly config: ServerConfig,
    private readonly options: LoadOptions,
    private readonly changed: (what: "status" | "tools") => void,
    /** A notification the gateway passes on to agents (forward.ts lists which). */
    notified: (method: string, params: Record<string, unknown>) => void = () => {},
    /** A followed task changed (SourceEvent "task"). */
    taskChanged: (record: TaskRecord) => void = () => {},
  ) {
    this.status = { name: config.name, state: config.enabled ? "connecting" : "disabled", toolCount: 0, target: targetOf(config), ...(config.sessionOnly ? { sessionOnly: true } : {}) };
    const log = (line: string) => this.log(line);
    const waitFor = options.waitFor;
    this.requests = new ServerRequests({ config, waitFor, client: () => this.client, offers: (method) => this.offers(method), notified, log });
    this.tasks = new ConnectionTasks({
      config,
      ledger: options.tasks ?? memoryLedger(),
      requests: this.requests,
      emit: taskChanged,
      wire: () => (this.status.state === "connected" ? this.taskWire : undefined),
      lifetime: () => this.lifetime.signal,
      log,
    });
    this.calls = {
      config,
      waitFor,
      requests: this.requests,
      tasks: this.tasks,
      taskWire: (tool) => (this.taskTools.has(tool) && this.status.state === "connected" ? this.taskWire : undefined),
      path: () => (this.client && this.status.state === "connected" ? this.callPath : undefined),
      notConnected: () => this.notConnected(),
      statusError: () => this.status.error,
      signIn: (agent) => this.signIn(agent),
    };
    if (config.type === "remote" && options.auth) {
      const session = options.auth.session({ name: config.name, url: config.url, oauth: config.oauth });
      this.auth = new SignIn(session, {
        name: config.name,
        waitFor,
        quitting: this.quitting.signal,
        state: () => this.status.state,
        closing: () => this.closing,
        transport: () => this.transport,
        attempt: () => this.attempt(),
        setStatus: (patch) => this.setStatus(patch),
        log,
      });
      session.attach({ signIn: () => this.signIn(), signedOut: () => this.signedOut() });
    }
  }

  async connect(): Promise<void> {
    // A server that needs sign-in asks in the background: loadMcp does not wait on a person.
    if ((await this.attempt()) === "needs-sign-in") this.signIn().catch(() => undefined);
  }

  /** Asks the person to sign in and connects again (sign-in.ts); resolves true once connected, never rejects. */
  signIn(agent?: string): Promise<boolean> {
    return this.auth ? this.auth.signIn(agent) : Promise.resolve(false);
  }

  /** Sign-out deleted every stored item: this connection's token is gone too. */
  private async signedOut(): Promise<void> {
    await this.shutdown();
    this.tools = [];
    this.status.toolCount = 0;
    this.setStatus({ state: "needs-sign-in", error: "signed out", signedIn: false });
    this.changed("tools");
  }

  private async attempt(): Promise<Attempt> {
    if (!this.config.enabled) return "failed";
    this.violation = undefined;
    const { timeout } = this.config;
    let phase = "connect";
    try {
      await this.open(timeout);
      phase = "tools/list";
      const listed = await withDeadline(this.client!.listTools(undefined, { timeout }), timeout, "tools/list");
      this.setTools(listed.tools);
      const signedIn = this.auth ? { signedIn: await this.auth.session.signedIn() } : {};
      this.setStatus({ state: "connected", error: undefined, protocol: this.client!.getNegotiatedProtocolVersion(), ...signedIn });
      this.tasks.resume();
      return "connected";
    } catch (error) {
      if (this.auth && isUnauthorized(error) && !this.closing) {
        this.auth.refused(this.transport);
        await this.shutdown();
        const host = this.auth.session.authorizationHost;
        this.setStatus({ state: "needs-sign-in", error: `sign-in needed${host ? ` at ${host}` : ""}` });
        return "needs-sign-in";
      }
      // What a stdio server said before it died is part of why: let its stderr finish (briefly).
      if (this.transport instanceof GroupStdioTransport) await this.transport.outputSettled(STDERR_SETTLE_MS);
      const message = connectFailure(this.config, this.transport, error, phase, this.violation);
      await this.shutdown();
      this.setStatus({ state: "failed", error: message });
      return "failed";
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.quitting.abort(new Error("the companion is shutting down"));
    // Followed tasks stop first: a task's question withdrawn below must not reach its server as a
    // `cancel` answer (tasks/update) that ends a task the next start would follow again.
    this.lifetime.abort(new Error("the companion is shutting down"));
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
    const openHandlers = this.requests.openHandlers;
    if (openHandlers.size > 0) {
      // The Inbox has usually cancelled them already (core closes it first); this covers the rest.
      this.requests.withdrawQuestions(new Error("the companion is shutting down"));
      await settle([...openHandlers], "answering its open questions");
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
    const onTooLarge = (error: Error) => this.tooLarge(error);
    if (config.type === "local") {
      const env = await expandEnvSecrets(config.env, this.options.secret);
      await this.openWith(stdioTransport(config, env, onTooLarge), "stdio", timeout);
      return;
    }
    const headers = await expandHeaders(config.headers, this.options.env ?? process.env, this.options.secret, inputs);
    const remote: RemoteSetting = { url: new URL(config.url), headers, authProvider: authProviderFor(headers, this.auth?.session.provider), onTooLarge };
    if (config.transport !== "sse") {
      // A 401 means the server speaks streamable HTTP and wants sign-in: whatever fails after
      // that (discovery, a foreign resource, an issuer mismatch) is the error to show, not SSE's.
      let challenged = false;
      try {
        const transport = streamableTransport(remote, () => {
          if (remote.authProvider) challenged = true;
        });
        await this.openWith(transport, "streamable-http", timeout, remote);
        return;
      } catch (error) {
        // A server that wants sign-in said so over streamable HTTP; SSE would only hide it.
        if (config.transport === "streamable-http" || this.closing || challenged || this.violation || isUnauthorized(error)) throw error;
        this.log(`${config.name}: streamable HTTP failed (${errorMessage(error)}); trying SSE`);
        await this.shutdown();
      }
    }
    await this.openWith(sseTransport(remote), "sse", timeout);
  }

  /** Connects a client over `transport`; then picks the call path its tool calls take until it closes. */
  private async openWith(transport: Transport, kind: NonNullable<ServerStatus["transport"]>, timeout: number, http?: RemoteSetting): Promise<void> {
    this.trackSends(transport);
    // Without a resolver elicitation is not advertised, so a compliant server never elicits.
    // Sampling is answered by the agent whose call is in flight (gateway), else refused; roots
    // always (server-requests.ts), and a change of whose roots the server must see is told (listChanged).
    // Either may come as the client's own task (2025-11-25 `tasks`: tasks/receiver.ts). Kept: the
    // 2026-07-28 task wire declares them again in each of its requests.
    const capabilities = { ...(this.options.waitFor ? { elicitation: { form: {}, url: {} } } : {}), sampling: {}, roots: { listChanged: true }, tasks: receiverCapability(!!this.options.waitFor) };
    const client = new Client(CLIENT_INFO, {
      capabilities,
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
    this.requests.install(client);
    const maxWait = this.options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.receiver = bindClientTasks(client, this.requests, this.options.waitFor !== undefined, maxWait, (line) => this.log(`${this.config.name}: ${line}`));
    this.lifetime = new AbortController();
    this.client = client;
    this.transport = transport;
    this.status.transport = kind;
    await withDeadline(client.connect(transport, { timeout }), timeout + 1000, "initialize");
    client.onclose = () => this.onClosed();
    this.taskWire = this.tasks.wireFor(client, this.era(), { transport, clientInfo: CLIENT_INFO, clientCapabilities: capabilities, maxWaitMs: maxWait });
    this.callPath = chooseCallPath({ kind, client, transport, server: this.config.name, maxWait, plain: (tool) => !this.typedTools.has(tool), http });
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

  private setTools(listed: Tool[]): void {
    const { tools, typed, taskTools } = listedTools(this.config.name, listed, (line) => this.log(line), (tool, args, ctx) => this.execute(tool, args, ctx), this.taskWire?.generation);
    this.tools = tools;
    this.typedTools = typed;
    this.taskTools = taskTools;
    this.status.toolCount = tools.length;
    this.changed("tools");
  }

  /** One call of `tool` (its name on the server): the server's result, bounded (calls.ts). */
  execute(tool: string, args: Record<string, unknown>, ctx: ExecuteContext = {}): Promise<CallToolResult> {
    return executeTool(this.calls, tool, args, ctx);
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
    if (!client || this.status.state !== "connected") throw this.notConnected();
    const maxWait = this.options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    return (await client.request({ method, params } as never, { signal: options.signal, timeout: Math.min(maxWait, this.config.callTimeout) })) as Record<string, unknown>;
  }

  private notConnected(): ToolCallError {
    return new ToolCallError(`server "${this.config.name}" is not connected${this.status.error ? `: ${this.status.error}` : ""}`);
  }

  /** The server went away on its own: fail it, withdraw its questions, drop its tools. */
  private onClosed(): void {
    if (this.closing) return;
    const detail = closedDetail(this.transport, this.violation);
    this.endTasks(new Error(detail));
    this.requests.withdrawQuestions(new Error(detail));
    this.callPath?.close(new Error(detail));
    this.callPath = undefined;
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

  /** The connection ended: followed tasks stop (they stay live, to be resumed); the receiver lets go of the client. */
  private endTasks(reason: Error): void {
    this.lifetime.abort(reason);
    this.receiver?.close();
    closeTaskWire(this.taskWire, reason);
    this.taskWire = this.receiver = undefined;
  }

  private async shutdown(): Promise<void> {
    this.endTasks(new Error("the server connection closed"));
    this.callPath?.close(new Error("the server connection closed"));
    this.callPath = undefined;
    this.requests.withdrawQuestions(new Error("the server connection closed"));
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
