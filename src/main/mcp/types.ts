// Shapes of the MCP source: the uniform tools it exposes and what it tells the app.
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { Answer, Request, ServerStatus } from "../../shared/types";
import type { AuthHook } from "../auth/types";
import type { InputSources } from "./config/inputs";
import type { TaskLedger } from "./tasks/ledger";
import type { TaskRecord } from "../../shared/tasks";

export interface ExecuteContext {
  signal?: AbortSignal;
  /** The agent on whose behalf the call runs (gateway), named on any question it triggers. */
  agent?: string;
  /** The agent's gateway session: two sessions of one agent may have different roots. */
  session?: string;
  /** Forwarded progress notifications from the server. */
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * The calling agent's own answers to requests its server makes while the call is in flight
   * (gateway). Each is present only when the agent can answer: it advertised the capability (and,
   * for elicitation, its person chose "the agent answers"). Without one the companion answers
   * (elicitation: the person) or the server gets a JSON-RPC error (sampling, roots).
   */
  sampling?: AgentRequest;
  roots?: AgentRequest;
  elicit?: AgentRequest;
  /** The server's `notifications/message` while this call is in flight, for the calling agent. */
  onlog?: (params: Record<string, unknown>) => void;
  /**
   * A question the server raised during this call, for the person to answer, opened (true) or
   * ended (false): once each per question, so a call may hold several open at once. The gateway
   * keeps the agent waiting meanwhile (gateway/heartbeat.ts, gateway/long-waits.ts).
   */
  onquestion?: (open: boolean) => void;
}

/** Sends one request to the agent and resolves with its result (rejects with its error). */
export type AgentRequest = (params: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>;

/** Sends one request to a connected server through its client (gateway forwarding). */
export interface McpBackend {
  /** The configured server name. */
  readonly name: string;
  /** What the server said it offers at initialize; undefined while it is not connected. */
  capabilities(): Record<string, unknown> | undefined;
  /** One request, result as the server gave it (after the SDK's schema check); rejects with its error. */
  forward(method: string, params: Record<string, unknown> | undefined, options?: { signal?: AbortSignal }): Promise<Record<string, unknown>>;
  /** Whether the era this server negotiated has `method` (era.ts); false while not connected. */
  offers(method: string): boolean;
}

/** The text of a tool's result, as a page is shown it (result.ts). */
export interface ToolOutput {
  output: string;
  isError: boolean;
}

export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  source: "mcp";
  server: string;
  /** The tool's name on its own server. */
  tool: string;
  title?: string;
  /**
   * The tool exactly as its server listed it (annotations, outputSchema, execution, icons,
   * `_meta` with MCP Apps' `_meta.ui`): the gateway re-declares it whole, under its own name.
   */
  definition?: Record<string, unknown>;
  /**
   * One call: the server's CallToolResult, within the JSON bounds (result.ts: else an error
   * result saying why). Taken by a raw call path it is as the server wrote it, unchecked against
   * the SDK's schema (`content` may be missing). Rejects with the call's failure (ToolCallError).
   */
  execute(args: Record<string, unknown>, ctx?: ExecuteContext): Promise<CallToolResult>;
}

export type SourceEvent =
  | { type: "status"; status: ServerStatus }
  | { type: "tools-changed"; server: string }
  /** A server's notification the gateway passes on (resources/updated, list_changed, message). */
  | { type: "notification"; server: string; method: string; params: Record<string, unknown> }
  /** A task the companion follows changed (started, polled with news, ended): the Tasks view. */
  | { type: "task"; record: TaskRecord };

export interface McpSource {
  /** Every connected server's tools, current as of the last list (refreshed on list_changed). */
  readonly tools: McpTool[];
  /** Server name → state (the short form of `servers()`). */
  readonly status: Record<string, ServerStatus["state"]>;
  /** Full status per server, with errors for display. */
  servers(): ServerStatus[];
  on(listener: (event: SourceEvent) => void): () => void;
  /** The servers as request targets, in config order (gateway: resources, prompts, completions, logging). */
  backends?(): McpBackend[];
  /**
   * Cancels a task the companion follows (by its own id, TaskRecord.id): tasks/cancel to its
   * server, then the record ends as cancelled. Resolves once the server answered; rejects with
   * why it could not (unknown id, already ended, server not connected).
   */
  cancelTask?(id: string): Promise<void>;
  close(): Promise<void>;
}

export interface LoadOptions extends InputSources {
  signal?: AbortSignal;
  /** Longest a tool call may wait while its server waits on a person. Default one hour. */
  maxWaitMs?: number;
  /** Environment used for `${VAR}` expansion in headers (defaults to process.env). */
  env?: Record<string, string | undefined>;
  /** OAuth for remote servers (src/main/auth createAuth); without it a 401 fails the server. */
  auth?: AuthHook;
  /** Where followed tasks are kept (History's store); without it, in memory only (ledger.ts). */
  tasks?: TaskLedger;
}
