// What every client reader shares: where a server was found, the server in the companion's own
// config shape, and the entries that could not be imported (with the reason).

export type ClientId =
  | "claude-desktop"
  | "claude-code"
  | "cursor"
  | "vscode"
  | "windsurf"
  | "zed"
  | "opencode"
  | "codex"
  | "gemini";

/** Where a server came from: the client, its file, and `user` / `project:<dir>` / `local:<dir>`. */
export interface Source {
  client: ClientId;
  file: string;
  scope?: string;
}

/** A VS Code `inputs` entry a server refers to, kept so the companion can ask for it later. */
export interface InputMeta {
  id: string;
  description?: string;
  password?: boolean;
}

/**
 * One server as the companion's `mcp.json` holds it (see src/main/mcp/config/config.ts): local
 * `{command,args,env,envFile,cwd}` or remote `{type,url,headers}`. Strings keep references in the
 * companion's syntax (`${VAR}`, `${VAR:-default}`, `${input:ID}`), never resolved secret values.
 */
export interface CompanionEntry {
  type?: "stdio" | "http" | "streamable-http" | "sse";
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  envFile?: string;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  timeout?: number;
  callTimeout?: number;
  disabled?: boolean;
  inputs?: InputMeta[];
}

export interface FoundServer {
  /** The name the client gives it. */
  name: string;
  entry: CompanionEntry;
  from: Source;
  /**
   * Set when its client would not run it: a project server from a folder the client does not
   * trust, or one the person disabled or never enabled there. One sentence ("not trusted in
   * Claude Code: …"); import leaves it out unless the person picks it after seeing its command.
   */
  untrusted?: string;
}

export interface SkippedServer {
  name: string;
  reason: string;
  from: Source;
}

export interface ReadResult {
  servers: FoundServer[];
  skipped: SkippedServer[];
  /** The whole file could not be read (syntax error, wrong shape); nothing from it is imported. */
  error?: string;
}

/** The machine a reader looks at: a HOME, an environment, a platform, and a project folder. */
export interface Machine {
  platform: NodeJS.Platform;
  home: string;
  env: Record<string, string | undefined>;
  /** The project whose project-scoped files are read (`.mcp.json`, `.vscode/mcp.json`, …). */
  project?: string;
}

/** A file a client reads, with the scope its servers have. */
export interface Location {
  file: string;
  scope: string;
  /** Project folder for project files: `${workspaceFolder}` and the default `cwd`. */
  project?: string;
}

export interface ClientReader {
  id: ClientId;
  /** How a person names it. */
  label: string;
  /** Every file this client reads on `machine`, in its own order of precedence (lowest first). */
  locations(machine: Machine): Location[];
  /** Reads one of those files (already read as `text`). */
  read(text: string, location: Location, machine: Machine): ReadResult;
  // Connecting an agent to the companion's gateway is writer.ts's (ClientWriter), not a reader's.
}
