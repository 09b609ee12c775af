// Reads an MCP server config in the shapes people already have (Claude Desktop, Cursor, VS Code,
// opencode): `mcpServers` / `servers` / `mcp`, or a bare map of servers. Per-server mistakes
// become that server's error so the others still load; only an unusable whole is thrown.

export const DEFAULT_TIMEOUT_MS = 30_000;
/** Keys a bare server map may carry that are not servers (toolnexus config sections). */
const RESERVED_KEYS = new Set(["builtins", "agents", "a2a", "mcpServer"]);
const WRAPPER_KEYS = ["mcpServers", "servers", "mcp"] as const;

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
}

export type ServerConfig = LocalServerConfig | RemoteServerConfig;

export interface ServerConfigError {
  name: string;
  error: string;
}

export interface ParsedConfig {
  servers: ServerConfig[];
  /** Servers that could not be read; each becomes status `failed` with this error. */
  invalid: ServerConfigError[];
}

export class McpConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpConfigError";
  }
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses JSON text, naming the line and column of a syntax error. */
export function parseConfigText(text: string, origin = "MCP config"): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    let where = "";
    if (at) {
      const before = text.slice(0, Number(at[1]));
      const line = before.split("\n").length;
      where = ` (line ${line}, column ${before.length - before.lastIndexOf("\n")})`;
    }
    throw new McpConfigError(`${origin} is not valid JSON${where}: ${message}`);
  }
}

/** Finds the server map inside any supported shape. */
function serverMap(config: unknown): Raw {
  if (!isObject(config)) {
    const shape = Array.isArray(config) ? "an array" : config === null ? "null" : `a ${typeof config}`;
    throw new McpConfigError(`MCP config must be an object of servers (under "mcpServers", "servers" or "mcp"), not ${shape}.`);
  }
  for (const key of WRAPPER_KEYS) {
    if (key in config) {
      const inner = config[key];
      if (!isObject(inner)) {
        throw new McpConfigError(`MCP config "${key}" must be an object mapping server names to servers.`);
      }
      return inner;
    }
  }
  const entries = Object.entries(config).filter(([k]) => !RESERVED_KEYS.has(k));
  if (entries.length > 0 && !entries.some(([, v]) => isObject(v))) {
    throw new McpConfigError(
      `MCP config has no recognisable servers: expected "mcpServers", "servers", "mcp", or a map of server objects; found keys ${entries
        .map(([k]) => JSON.stringify(k))
        .join(", ")}.`,
    );
  }
  return Object.fromEntries(entries);
}

function stringMap(value: unknown, what: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new Error(`${what} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") {
      throw new Error(`${what}.${k} must be a string`);
    }
    out[k] = String(v);
  }
  return out;
}

function positiveMs(value: unknown, what: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new Error(`${what} must be a positive number of milliseconds`);
  }
  return value;
}

function parseServer(name: string, raw: unknown): ServerConfig {
  if (!isObject(raw)) throw new Error("must be an object with a `command` or a `url`");
  const enabled = raw.disabled !== true && raw.enabled !== false;
  const timeout = positiveMs(raw.timeout, "timeout", DEFAULT_TIMEOUT_MS);
  const callTimeout = positiveMs(raw.callTimeout, "callTimeout", 60_000);
  const type = typeof raw.type === "string" ? raw.type.toLowerCase() : undefined;
  const isRemote = type ? ["remote", "http", "streamable-http", "streamablehttp", "sse"].includes(type) : raw.url !== undefined;
  const isLocal = type ? ["local", "stdio"].includes(type) : raw.command !== undefined;
  if (type && !isRemote && !isLocal) throw new Error(`unknown type "${raw.type}" (use "local"/"stdio" or "remote"/"http"/"sse")`);
  const protocol = raw.protocol ?? (isRemote ? "auto" : "legacy");
  if (protocol !== "auto" && protocol !== "legacy") throw new Error('protocol must be "auto" or "legacy"');

  if (isRemote) {
    if (typeof raw.url !== "string" || raw.url === "") throw new Error("a remote server needs a `url`");
    let url: URL;
    try {
      url = new URL(raw.url);
    } catch {
      throw new Error(`url "${raw.url}" is not a valid URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`url must be http(s), not ${url.protocol}`);
    const transport = type === "sse" ? "sse" : type === "streamable-http" || type === "streamablehttp" ? "streamable-http" : "auto";
    return { name, type: "remote", enabled, timeout, callTimeout, protocol, url: url.href, headers: stringMap(raw.headers, "headers"), transport };
  }
  if (!isLocal) throw new Error("needs a `command` (local server) or a `url` (remote server)");

  let command: string;
  let args: string[];
  if (Array.isArray(raw.command)) {
    if (raw.command.length === 0 || !raw.command.every((p) => typeof p === "string")) {
      throw new Error("`command` as an array must be non-empty strings");
    }
    [command, ...args] = raw.command as string[];
    if (raw.args !== undefined) args = [...args, ...stringList(raw.args)];
  } else if (typeof raw.command === "string" && raw.command.trim() !== "") {
    command = raw.command;
    args = raw.args === undefined ? [] : stringList(raw.args);
  } else {
    throw new Error("`command` must be a string or an array of strings");
  }
  if (raw.env !== undefined && raw.environment !== undefined) throw new Error("give `env` or `environment`, not both");
  const env = stringMap(raw.env ?? raw.environment, raw.env !== undefined ? "env" : "environment");
  if (raw.cwd !== undefined && typeof raw.cwd !== "string") throw new Error("`cwd` must be a string");
  return { name, type: "local", enabled, timeout, callTimeout, protocol, command, args, env, cwd: raw.cwd as string | undefined };
}

function stringList(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((a) => typeof a === "string" || typeof a === "number")) {
    throw new Error("`args` must be an array of strings");
  }
  return value.map(String);
}

/**
 * Reads a config object (or its JSON text). Throws McpConfigError only when nothing can be read;
 * a broken server entry lands in `invalid` with a message, and the rest load.
 */
export function parseConfig(config: unknown): ParsedConfig {
  const value = typeof config === "string" ? parseConfigText(config) : config;
  const servers: ServerConfig[] = [];
  const invalid: ServerConfigError[] = [];
  for (const [name, raw] of Object.entries(serverMap(value))) {
    try {
      servers.push(parseServer(name, raw));
    } catch (error) {
      invalid.push({ name, error: `server "${name}": ${(error as Error).message}` });
    }
  }
  return { servers, invalid };
}

/** `sanitize(x) = x.replace(/[^a-zA-Z0-9_-]/g, "_")` — the tool-name rule of the seeds. */
export function sanitize(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/** Expands `${VAR}` from `env` and `${secret:NAME}` through `secret`; a missing one is an error naming it. */
export async function expandHeaders(
  headers: Record<string, string>,
  env: Record<string, string | undefined>,
  secret?: (name: string) => Promise<string | undefined>,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, template] of Object.entries(headers)) {
    let value = "";
    let last = 0;
    for (const match of template.matchAll(/\$\{(secret:)?([A-Za-z_][A-Za-z0-9_.-]*)\}/g)) {
      value += template.slice(last, match.index);
      last = match.index + match[0].length;
      const name = match[2];
      if (match[1]) {
        const found = secret ? await secret(name) : undefined;
        if (found === undefined) throw new Error(`header "${key}" needs the secret "${name}", which is not set in the keychain`);
        value += found;
      } else {
        const found = env[name];
        if (found === undefined) throw new Error(`header "${key}" needs the environment variable ${name}, which is not set`);
        value += found;
      }
    }
    out[key] = value + template.slice(last);
  }
  return out;
}
