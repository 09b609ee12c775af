// The Request/Answer contract every question follows — an MCP server's elicitation (mcp/elicit.ts),
// an agent's POST /v1/requests, a permission hook — and the shapes every view shares.
// Types only: this folder crosses process boundaries and has no runtime dependencies.

/** One question for the person. Keys are exactly these (gateway/validate-request.ts refuses any other). */
export interface Request {
  id: string;
  /** "input" (a form), "authorization" (open a URL), or another kind an agent posts. */
  kind: string;
  prompt: string;
  url?: string;
  data?: Record<string, unknown>;
  /** RFC 3339 timestamp after which the question answers itself `expired`. */
  expiresAt?: string;
}

/** The person's answer. `reason` only when `ok` is false. */
export interface Answer {
  id: string;
  ok: boolean;
  data?: Record<string, unknown>;
  /** The companion's own reasons are "declined" (the only one MCP calls `decline`), "cancelled" and "expired". */
  reason?: string;
}

/** Who asks: the MCP server, and the agent whose call triggered it when known. */
export interface Asker {
  server?: string;
  agent?: string;
  /** The tool whose call asked, by its own name on the server, when main can tell. */
  tool?: string;
}

/** A question waiting in the Inbox. */
export interface PendingEntry {
  request: Request;
  source: Asker;
  /** Epoch milliseconds when the question arrived. */
  receivedAt: number;
  /** The agent answering it itself (gateway "who answers": the agent); the person may still answer here. */
  answering?: string;
}

/**
 * Why a question left the Inbox without the person answering it. `agent-gone`: the agent it was
 * asked for disconnected (the event's message names it: "<agent> disconnected").
 */
export type WithdrawReason = "aborted" | "expired" | "closed" | "agent-gone";

export type InboxEvent =
  /**
   * `byRule` (a rule id) when a rule the person set answers it at once: an "answered" event with
   * `by: "rule"` follows straight away, so views neither notify about it nor open it.
   */
  | { type: "added"; entry: PendingEntry; byRule?: string }
  /**
   * `by: "rule"` (with `ruleId`) when a rule the person set answered it at once, so history
   * records it as such and views can offer to undo the rule; absent when the person answered.
   */
  | { type: "answered"; id: string; answer: Answer; by?: "rule" | "agent"; ruleId?: string }
  /** `message` says why in words, e.g. the server stopped waiting or went away. */
  | { type: "withdrawn"; id: string; reason: WithdrawReason; message?: string }
  /** A question answered `cancel` at once (rate limit, duplicate id); never shown as pending. */
  | { type: "refused"; request: Request; source: Asker; reason: string };

/**
 * `connecting` only while the app starts a server in the background (the UI is already up);
 * `needs-sign-in` when a remote server wants OAuth and the person has not (yet) signed in;
 * `restarting` while a server that exited or dropped waits for its next try (with backoff);
 * `crash-loop` when it failed too often in a row and is left stopped until the person retries.
 */
export type ServerState = "connecting" | "connected" | "disabled" | "failed" | "needs-sign-in" | "restarting" | "crash-loop";

export interface ServerStatus {
  name: string;
  state: ServerState;
  /** Why it failed, for display. Never contains a header or secret value. */
  error?: string;
  transport?: "stdio" | "streamable-http" | "sse";
  /** The negotiated MCP protocol revision, e.g. "2025-11-25" or "2026-07-28". */
  protocol?: string;
  toolCount: number;
  /** Restarts tried since it last stayed up (supervisor); with `restarting` and `crash-loop`. */
  attempt?: number;
  /** Epoch milliseconds of the next try, while `restarting`. */
  nextRetryAt?: number;
  /** A remote server with OAuth tokens stored: only then does the Servers view offer Sign out. */
  signedIn?: boolean;
  /**
   * What runs: the command line of a local server or the URL of a remote one, as the page may see
   * it (token-looking arguments and URL query values masked). Absent for the config-error entry.
   */
  target?: ServerTarget;
  /** Runs for this session only, not from the config file (the demo of "Try a question"). */
  sessionOnly?: boolean;
}

export type ServerTarget = { kind: "local"; command: string; args: string[]; cwd?: string } | { kind: "remote"; url: string };

/**
 * A tool as the servers list carries it: no input schema, the description cut to its start
 * (`descriptionCut` then). A server may offer a thousand tools of a quarter MiB each; the list
 * stays small and the page asks for one tool whole (`tools:get`) when the person opens it.
 */
export interface ToolSummary {
  /** `sanitize(server) + "_" + sanitize(tool)`. */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  title?: string;
  description: string;
  descriptionCut?: true;
}

/** One tool whole, as `tools:get` returns it. */
export interface ToolInfo extends ToolSummary {
  inputSchema: Record<string, unknown>;
}

export interface ToolRunResult {
  output: string;
  isError: boolean;
}

/** A server as the Servers view shows it: its status and a summary of its tools. */
export interface ServerView extends ServerStatus {
  /** Names, titles and the start of each description; `tools:get` has a tool whole. */
  tools: ToolSummary[];
}
