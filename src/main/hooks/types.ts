// What every agent's permission hook adapter provides: how to read the agent's hook input and how
// to write a decision in that agent's exact output schema. One file per agent implements it.

/** One tool call an agent is about to ask the person about, in the agent's own words. */
export interface PermissionCall {
  /** The agent's tool name as it sent it (`Bash`, `Edit`, `mcp__github__create_issue`, …). */
  tool: string;
  /** The tool's arguments as the agent sent them. */
  toolInput: unknown;
  /** The working directory the agent runs in: the project folder. */
  cwd?: string;
  sessionId?: string;
  permissionMode?: string;
}

export type ReadResult = { ok: true; call: PermissionCall } | { ok: false; reason: string };

export interface HookAgent {
  /** The CLI name: `toolnexus-companion hook <id>`. */
  id: string;
  /** Shown to the person as who asks; also sent as X-Agent-Name (printable ASCII). */
  label: string;
  /** Reads the hook's stdin JSON; unknown fields are tolerated, a wrong event is refused. */
  read(input: unknown): ReadResult;
  /** stdout for "allow". */
  allow(): string;
  /** stdout for "deny", with the message the agent passes to its model. */
  deny(message: string): string;
}
