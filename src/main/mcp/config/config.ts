// A server's config as the companion holds it once read (parse.ts reads it from the shapes people
// already have): a local server to spawn or a remote one to reach, with the bounds and choices
// that apply to either; and the tool-name rule its name follows on the gateway.
import type { InputSpec } from "./references";

export const DEFAULT_TIMEOUT_MS = 30_000;

/** Which protocol era to ask for: `auto` probes for 2026-07-28, `legacy` speaks 2025-11-25. */
export type ProtocolChoice = "auto" | "legacy";

interface Common {
  name: string;
  enabled: boolean;
  /** Bound on each connect phase: spawn/connect, initialize, tools/list. */
  timeout: number;
  /** Idle time a tool call may go without a response, progress or pending question. */
  callTimeout: number;
  protocol: ProtocolChoice;
  /** VS Code `inputs` recorded beside the entry by an import: what `${input:ID}` asks (mcp/inputs.ts). */
  inputs?: InputSpec[];
  /**
   * The person's folders for this server's `roots/list`, as `file://` URIs: answered when no
   * calling agent has roots of its own (absent: an empty list).
   */
  roots?: Array<{ uri: string; name: string }>;
  /** Not from the config file: runs for this session only (the first run's demo server). */
  sessionOnly?: boolean;
}

export interface LocalServerConfig extends Common {
  type: "local";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface RemoteServerConfig extends Common {
  type: "remote";
  url: string;
  /** Values may hold `${ENV}` and `${secret:NAME}`; expanded at connect time, never logged. */
  headers: Record<string, string>;
  /** `sse` forces the legacy SSE transport; `auto` tries streamable HTTP, then SSE. */
  transport: "auto" | "streamable-http" | "sse";
  /** A client registered with the server's authorization server beforehand (src/main/auth). */
  oauth?: { clientId: string; clientSecret?: string; scopes?: string[] };
}

export type ServerConfig = LocalServerConfig | RemoteServerConfig;

/** A tool name keeps letters, digits, `_` and `-`; anything else becomes `_`. */
export function sanitize(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

// The connection (mcp/connection/) expands a server's env and headers at connect time from here.
export { expandEnvSecrets, expandHeaders } from "./references";
