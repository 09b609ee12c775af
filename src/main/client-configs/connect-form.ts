// What "connected to the companion" means in another client's config: an entry named `toolnexus`
// that either launches the stdio `connect` shim (which reads the gateway token from the keychain)
// or points at the gateway URL with the token carried the best way that client offers.
import type { CompanionEntry } from "./types";

/** The name the companion's entry has in every client's config. */
export const ENTRY_NAME = "toolnexus";
/** The variable the CLI, the shim and the hook read the gateway token from. */
export const TOKEN_ENV = "TOOLNEXUS_COMPANION_TOKEN";
/** VS Code's `inputs` id: VS Code asks once and keeps the answer in its secret storage. */
export const TOKEN_INPUT_ID = "toolnexus-token";
export const DEFAULT_COMPANION_URL = "http://127.0.0.1:7315";

export type Via = "shim" | "http";

export interface ConnectOptions {
  via: Via;
  /** How this machine starts the companion's CLI: `toolnexus-companion` on PATH, or `node <bin>`. */
  cli: { command: string; args: string[] };
  /** The gateway's MCP endpoint, `<companion URL>/mcp`. */
  gatewayUrl: string;
  /** Set only when TOOLNEXUS_COMPANION_URL moved the companion: the shim is told the same. */
  companionUrl?: string;
  /** The gateway token itself, for the clients that cannot refer to it (`--literal-token`). */
  literalToken?: string;
  /** The client being connected: the shim asks as this agent, with its own credential. */
  agent?: string;
}

/** The shim's command line and environment. */
export function shim(options: ConnectOptions): { command: string; args: string[]; env?: Record<string, string> } {
  return {
    command: options.cli.command,
    args: [...options.cli.args, "connect", ...(options.agent ? ["--agent", options.agent] : [])],
    ...(options.companionUrl ? { env: { TOOLNEXUS_COMPANION_URL: options.companionUrl } } : {}),
  };
}

export function gatewayUrl(companionUrl: string = DEFAULT_COMPANION_URL): string {
  return new URL("/mcp", companionUrl).href;
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");
const base = (path: string) => path.split(/[\\/]/).pop() ?? path;
const isCli = (path: string) => /^toolnexus-companion(\.cmd|\.ps1|\.exe)?$/i.test(base(path));
const isNode = (path: string) => /^node(\.exe)?$/i.test(base(path));

/** Whether a server the readers found is the companion: the shim, or the gateway's URL. */
export function isCompanionEntry(entry: CompanionEntry, gateway: string): boolean {
  if (entry.url !== undefined) {
    try {
      return trimSlash(new URL(entry.url).href) === trimSlash(new URL(gateway).href);
    } catch {
      return false;
    }
  }
  const args = entry.args ?? [];
  if (entry.command && isCli(entry.command)) return args[0] === "connect";
  if (entry.command && isNode(entry.command)) return args.length >= 2 && isCli(args[0]) && args[1] === "connect";
  return false;
}
