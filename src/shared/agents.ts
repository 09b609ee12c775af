// Connecting local agents to the companion, as the Agents view sees it: which agents this machine
// has, and the planned change to their config files (shown before anything is written). Plain data.

export type AgentVia = "shim" | "http";

/** Where the gateway token is kept: the keychain, a file only this user can read, or nowhere (why). */
export type TokenKept = { kind: "keychain" } | { kind: "file"; path: string } | { kind: "session"; why: string };

/**
 * How an HTTP entry carries the gateway token in this agent: a variable it expands (`env`), VS
 * Code's password prompt (`input`), only the token itself (`literal`), or no remote servers (`none`).
 */
export type AgentHttp = "env" | "input" | "literal" | "none";

export interface AgentView {
  id: string;
  label: string;
  /** One of its config folders or files exists on this machine. */
  found: boolean;
  /** Files where an entry reaches this companion. */
  connections: Array<{ file: string; name: string; scope: string }>;
  /** Files with a `toolnexus` entry that points elsewhere (an old path, another port). */
  stale: Array<{ file: string; scope: string }>;
  /** Only agents with a PermissionRequest hook (Claude Code, Codex): the files ours is in. */
  hook?: { installed: string[] };
  defaultVia: AgentVia;
  http: AgentHttp;
  docs: string;
  errors: string[];
  /** Where the shim (and `toolnexus-companion token`) finds the gateway token on this machine. */
  tokenKept?: TokenKept;
  /**
   * Whether a call of this agent still waiting on the person near its 60 s timeout tells it "not
   * answered yet" and how to collect the answer (config `gateway.longWaits`); absent when the
   * companion has no config file to write it in.
   */
  longWaits?: boolean;
}

/** Turns one agent's long waits on or off in the companion's config. */
export interface AgentsLongWaitsArg {
  agent: string;
  on: boolean;
}

export interface AgentsPlanArg {
  agent: string;
  /** true: connect; false: disconnect. */
  connect: boolean;
  /** The entry's form; the agent's default when absent. */
  via?: AgentVia;
  /** Also install (or remove) the PermissionRequest hook: Claude Code and Codex only. */
  hooks?: boolean;
  /** Edit this project's files (absolute path) instead of the user's. */
  project?: string;
  /** The person chose to write the gateway token in plain text where nothing better exists (Zed over HTTP). */
  literalToken?: boolean;
}

/** `fingerprint` is the plan's, as agents:plan returned it: apply refuses anything else. */
export interface AgentsApplyArg extends AgentsPlanArg {
  fingerprint: string;
}

export interface AgentFileChange {
  file: string;
  what: "server" | "hook";
  /** What happens, in words ("adds \"toolnexus\"", "already connected"). */
  note: string;
  /** Whether applying writes this file at all. */
  changes: boolean;
  /** The file does not exist yet (connecting creates it). */
  creates: boolean;
  /** Disconnecting deletes the file, which held nothing else. */
  deletes: boolean;
  /** A unified diff of the change ("" when nothing changes). */
  diff: string;
  /** Where the copy made before writing goes (`FILE.bak-<time>`); absent when there is nothing to copy. */
  backup?: string;
}

export interface AgentsPlan {
  agent: string;
  label: string;
  connect: boolean;
  via: AgentVia;
  hooks: boolean;
  files: AgentFileChange[];
  /** Said to the person before they apply: how the token is carried, warnings, what to do after. */
  notes: string[];
  /**
   * Set when the person must choose before this can be applied (Zed over HTTP: the token in plain
   * text). `agents:plan` with `literalToken: true` (or `via: "shim"`) answers it.
   */
  choice?: { kind: "literal-token"; message: string };
  /** Identifies exactly these edits to these file contents; agents:apply must carry it back. */
  fingerprint: string;
}

export interface AgentsApplyResult {
  agent: string;
  /** Files written (or deleted), each with its backup when there was a file to copy. */
  written: Array<{ file: string; backup?: string; deleted?: boolean }>;
  notes: string[];
  /** The agents again, as they are now. */
  agents: AgentView[];
}

/**
 * The Agents view's invoke channels: channel → [argument, result]. contract.ts's InvokeMap
 * extends this (served by src/main/client-configs/agents-handlers.ts).
 */
export interface AgentsInvokeMap {
  "agents:list": [void, AgentView[]];
  /** The planned change per file, nothing written. */
  "agents:plan": [AgentsPlanArg, AgentsPlan];
  /** Writes exactly the plan whose fingerprint it carries; refuses (plan-changed) if the files moved on. */
  "agents:apply": [AgentsApplyArg, AgentsApplyResult];
  /** Writes `gateway.longWaits.agents.<agent>` in the companion's config; the agents again. */
  "agents:longWaits": [AgentsLongWaitsArg, AgentView[]];
}

export const AGENTS_INVOKE_CHANNELS = ["agents:list", "agents:plan", "agents:apply", "agents:longWaits"] as const satisfies readonly (keyof AgentsInvokeMap)[];
