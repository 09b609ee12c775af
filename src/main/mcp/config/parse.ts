// Reads an MCP server config in the shapes people already have (Claude Desktop, Claude Code, Cursor,
// VS Code, Windsurf, Zed, opencode, Gemini CLI): `mcpServers` / `servers` / `context_servers` / `mcp`
// (and opencode's newer `mcp.servers`), or a bare map of servers. Comments and trailing commas are
// accepted (JSONC). Per-server mistakes become that server's error so the others still load; an
// entry that is not a server at all (a settings key) is skipped with the reason; only an unusable
// whole is thrown.
import { isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";
import { McpConfigError, parseConfigText } from "../../base/config-text";
import { DEFAULT_TIMEOUT_MS, type RemoteServerConfig, type ServerConfig } from "./config";
import { readEnvFile } from "./env-file";
import { envResolver, substitute, type InputSpec } from "./references";
import { isPlainObject } from "../../../shared/unknown-value";

/** Keys a bare server map may carry that are not servers (toolnexus config sections). */
const RESERVED_KEYS = new Set(["builtins", "agents", "a2a", "mcpServer", "gateway"]);
const WRAPPER_KEYS = ["mcpServers", "servers", "context_servers", "mcp"] as const;
/** The keys that make an entry a server; an entry with none of them is some other setting. */
const SERVER_KEYS = ["command", "url", "serverUrl", "httpUrl", "type"] as const;

export interface ServerConfigError {
  name: string;
  error: string;
}

/** An entry of the server map that is not a server (another setting, an extension's entry). */
export interface SkippedEntry {
  name: string;
  reason: string;
}

export interface ParsedConfig {
  servers: ServerConfig[];
  /** Servers that could not be read; each becomes status `failed` with this error. */
  invalid: ServerConfigError[];
  /** Entries that are not servers at all; never started, never shown as failed. */
  skipped: SkippedEntry[];
}

export interface ParseOptions {
  /**
   * Where `${VAR}` in command, args, env, cwd, url and envFile comes from (default: this
   * process's environment). Headers keep their references until connect time, when secrets
   * are at hand too.
   */
  env?: Record<string, string | undefined>;
  /** false: keep every `${…}` as written (for listing the config), and read no envFile. */
  expand?: boolean;
}

type Raw = Record<string, unknown>;

/** True when the object looks like one server rather than a map of servers. */
const looksLikeServer = (value: Raw) => SERVER_KEYS.some((k) => k in value);

/**
 * Where the server map sits in a config: its key path (`["mcpServers"]`, `["mcp", "servers"]`, …),
 * `[]` for a bare map of servers, `["mcpServers"]` for an empty config (where a first server goes).
 * The one locator: reading (serverMap) and editing (edit.ts, import) both follow it.
 */
export function serverMapPath(config: unknown): string[] {
  if (!isPlainObject(config)) return ["mcpServers"];
  for (const key of WRAPPER_KEYS) {
    if (!(key in config)) continue;
    const inner = config[key];
    // opencode's newer layout (and VS Code's settings.json) nest the map one level down:
    // `mcp: { servers: { … } }`. A server that is itself named "servers" has a command or url.
    if (key === "mcp" && isPlainObject(inner) && isPlainObject(inner.servers) && !looksLikeServer(inner.servers)) return ["mcp", "servers"];
    return [key];
  }
  return Object.keys(config).length > 0 ? [] : ["mcpServers"];
}

/** Finds the server map inside any supported shape. */
function serverMap(config: unknown): Raw {
  if (!isPlainObject(config)) {
    const shape = Array.isArray(config) ? "an array" : config === null ? "null" : `a ${typeof config}`;
    throw new McpConfigError(`MCP config must be an object of servers (under "mcpServers", "servers" or "mcp"), not ${shape}.`);
  }
  const [key, nested] = serverMapPath(config);
  if (key !== undefined && key in config) {
    const inner = config[key];
    if (!isPlainObject(inner)) {
      throw new McpConfigError(`MCP config "${key}" must be an object mapping server names to servers.`);
    }
    return nested === undefined ? inner : (inner[nested] as Raw);
  }
  const entries = Object.entries(config).filter(([k]) => !RESERVED_KEYS.has(k));
  if (entries.length > 0 && !entries.some(([, v]) => isPlainObject(v))) {
    throw new McpConfigError(
      `MCP config has no recognisable servers: expected "mcpServers", "servers", "mcp", or a map of server objects; found keys ${entries
        .map(([k]) => JSON.stringify(k))
        .join(", ")}.`,
    );
  }
  return Object.fromEntries(entries);
}

/** The `inputs` an import recorded beside a server, by id (VS Code's description and password flag). */
function inputInfo(raw: Raw): Map<string, InputSpec> {
  const map = new Map<string, InputSpec>();
  if (!Array.isArray(raw.inputs)) return map;
  for (const input of raw.inputs) {
    if (isPlainObject(input) && typeof input.id === "string") {
      map.set(input.id, {
        id: input.id,
        ...(typeof input.description === "string" ? { description: input.description } : {}),
        ...(input.password === true ? { password: true } : {}),
      });
    }
  }
  return map;
}

// ---- one server ------------------------------------------------------------------------------

function stringMap(value: unknown, what: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw new Error(`${what} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") {
      throw new Error(`${what}.${k} must be a string`);
    }
    out[k] = String(v);
  }
  return out;
}

/** `oauth: { clientId, clientSecret?, scopes? }`: a pre-registered OAuth client; `${VAR}` expands. */
function oauthClient(value: unknown, text: (value: string, field: string) => string): RemoteServerConfig["oauth"] {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) throw new Error("oauth must be an object { clientId, clientSecret?, scopes? }");
  if (typeof value.clientId !== "string" || value.clientId === "") throw new Error("oauth.clientId must be a non-empty string");
  if (value.clientSecret !== undefined && typeof value.clientSecret !== "string") throw new Error("oauth.clientSecret must be a string");
  const scopes = value.scopes;
  if (scopes !== undefined && (!Array.isArray(scopes) || scopes.some((s) => typeof s !== "string" || /\s/.test(s) || s === ""))) {
    throw new Error("oauth.scopes must be a list of scope names without spaces");
  }
  return {
    clientId: text(value.clientId, "oauth.clientId"),
    ...(typeof value.clientSecret === "string" ? { clientSecret: text(value.clientSecret, "oauth.clientSecret") } : {}),
    ...(scopes ? { scopes: [...(scopes as string[])] } : {}),
  };
}

function positiveMs(value: unknown, what: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new Error(`${what} must be a positive number of milliseconds`);
  }
  return value;
}

const REMOTE_TYPES = ["remote", "http", "streamable-http", "streamablehttp", "sse"];
const LOCAL_TYPES = ["local", "stdio"];

/** The one URL of a remote entry: `url`, Windsurf's `serverUrl` or Gemini CLI's `httpUrl`. */
function remoteUrl(raw: Raw): { url?: unknown; key?: string } {
  const given = (["url", "serverUrl", "httpUrl"] as const).filter((k) => raw[k] !== undefined);
  if (given.length > 1 && new Set(given.map((k) => raw[k])).size > 1) {
    throw new Error(`give one of ${given.map((k) => `\`${k}\``).join(", ")}, not several`);
  }
  return given.length === 0 ? {} : { url: raw[given[0]], key: given[0] };
}

function parseServer(name: string, raw: Raw, options: ParseOptions): ServerConfig {
  const expand = options.expand !== false;
  const env = options.env ?? process.env;
  const inputs = inputInfo(raw);
  const text = (value: string, field: string) => (expand ? substitute(value, envResolver(field, env, inputs)) : value);
  const recorded = { ...(inputs.size > 0 ? { inputs: [...inputs.values()] } : {}), ...folderRoots(raw.roots) };

  const enabled = raw.disabled !== true && raw.enabled !== false;
  const timeout = positiveMs(raw.timeout, "timeout", DEFAULT_TIMEOUT_MS);
  const callTimeout = positiveMs(raw.callTimeout, "callTimeout", 60_000);
  const type = typeof raw.type === "string" ? raw.type.toLowerCase() : undefined;
  const { url: rawUrl, key: urlKey } = remoteUrl(raw);
  const isRemote = type ? REMOTE_TYPES.includes(type) : rawUrl !== undefined;
  const isLocal = type ? LOCAL_TYPES.includes(type) : raw.command !== undefined;
  if (type && !isRemote && !isLocal) throw new Error(`unknown type "${raw.type}" (use "local"/"stdio" or "remote"/"http"/"streamable-http"/"sse")`);
  const protocol = raw.protocol ?? (isRemote ? "auto" : "legacy");
  if (protocol !== "auto" && protocol !== "legacy") throw new Error('protocol must be "auto" or "legacy"');

  if (isRemote) {
    if (typeof rawUrl !== "string" || rawUrl === "") throw new Error("a remote server needs a `url`");
    const written = text(rawUrl, urlKey ?? "url");
    let url: URL;
    try {
      url = new URL(written);
    } catch {
      throw new Error(`url "${rawUrl}" is not a valid URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`url must be http(s), not ${url.protocol}`);
    // Headers are expanded at connect time: secrets and inputs are at hand there.
    const headers = stringMap(raw.headers, "headers");
    const transport =
      type === "sse" ? "sse" : type === "streamable-http" || type === "streamablehttp" || (urlKey === "httpUrl" && !type) ? "streamable-http" : "auto";
    const oauth = oauthClient(raw.oauth, text);
    return { name, type: "remote", enabled, timeout, callTimeout, protocol, url: expand ? url.href : rawUrl, headers, transport, ...(oauth ? { oauth } : {}), ...recorded };
  }
  if (!isLocal) throw new Error("needs a `command` (local server) or a `url` (remote server)");

  let command: string;
  let args: string[];
  let commandEnv: unknown;
  if (Array.isArray(raw.command)) {
    if (raw.command.length === 0 || !raw.command.every((p) => typeof p === "string")) {
      throw new Error("`command` as an array must be non-empty strings");
    }
    [command, ...args] = raw.command as string[];
    if (raw.args !== undefined) args = [...args, ...stringList(raw.args)];
  } else if (typeof raw.command === "string" && raw.command.trim() !== "") {
    command = raw.command;
    args = raw.args === undefined ? [] : stringList(raw.args);
  } else if (isPlainObject(raw.command) && typeof raw.command.path === "string" && raw.command.path.trim() !== "") {
    // Zed's older settings: `command: { path, args, env }`.
    command = raw.command.path;
    args = raw.command.args === undefined ? [] : stringList(raw.command.args);
    commandEnv = raw.command.env;
  } else {
    throw new Error("`command` must be a string or an array of strings");
  }
  if (raw.env !== undefined && raw.environment !== undefined) throw new Error("give `env` or `environment`, not both");
  const written = { ...stringMap(commandEnv, "command.env"), ...stringMap(raw.env ?? raw.environment, raw.env !== undefined ? "env" : "environment") };
  if (raw.cwd !== undefined && typeof raw.cwd !== "string") throw new Error("`cwd` must be a string");
  if (raw.envFile !== undefined && typeof raw.envFile !== "string") throw new Error("`envFile` must be a path");

  const envOut: Record<string, string> = {};
  if (expand && typeof raw.envFile === "string") Object.assign(envOut, readEnvFile(text(raw.envFile, "envFile")));
  for (const [key, value] of Object.entries(written)) envOut[key] = text(value, `env.${key}`);
  return {
    name,
    type: "local",
    enabled,
    timeout,
    callTimeout,
    protocol,
    command: text(command, "command"),
    args: args.map((a, i) => text(a, `args[${i}]`)),
    env: envOut,
    cwd: raw.cwd === undefined ? undefined : text(raw.cwd as string, "cwd"),
    ...recorded,
  };
}

/** `roots`: absolute folder paths, each a root `{ uri: file://…, name: <its last segment> }`. */
function folderRoots(value: unknown): { roots?: Array<{ uri: string; name: string }> } {
  if (value === undefined) return {};
  if (!Array.isArray(value) || !value.every((p) => typeof p === "string" && p.trim() !== "")) throw new Error("`roots` must be an array of folder paths");
  const roots = (value as string[]).map((path) => {
    if (!isAbsolute(path)) throw new Error(`\`roots\`: ${JSON.stringify(path)} is not an absolute path`);
    const uri = pathToFileURL(path).href.replace(/\/+$/, "");
    return { uri, name: path.replace(/[\\/]+$/, "").split(/[\\/]/).pop() || path };
  });
  return { roots };
}

function stringList(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((a) => typeof a === "string" || typeof a === "number")) {
    throw new Error("`args` must be an array of strings");
  }
  return value.map(String);
}

/** Why an entry of the server map is not a server, or undefined when it is one. */
function notAServer(raw: unknown): string | undefined {
  if (!isPlainObject(raw)) {
    const shape = Array.isArray(raw) ? "a list" : raw === null ? "null" : `a ${typeof raw}`;
    return `not a server (${shape}, not an object with a \`command\` or a \`url\`)`;
  }
  if (!looksLikeServer(raw)) {
    if (raw.source === "extension" || ("settings" in raw && Object.keys(raw).every((k) => ["settings", "source", "enabled"].includes(k)))) {
      return "provided by an editor extension, which knows how to start it; there is no command or url to run";
    }
    // An entry that carries what only a server has (args, env, headers…) is a server with a
    // mistake in it: the person should see it fail and why, not find it silently skipped.
    if (Object.keys(raw).some((k) => SERVER_ONLY_KEYS.has(k))) return undefined;
    return "not a server: it has no `command` or `url`";
  }
  return undefined;
}

/** Keys that mean "this entry was meant as a server" even when it lacks a command or url. */
const SERVER_ONLY_KEYS = new Set(["args", "env", "environment", "envFile", "cwd", "headers", "transport", "http_headers", "bearer_token_env_var"]);

/**
 * Reads a config object (or its JSON/JSONC text). Throws McpConfigError only when nothing can be
 * read; a broken server entry lands in `invalid` with a message, an entry that is not a server
 * lands in `skipped`, and the rest load.
 */
export function parseConfig(config: unknown, options: ParseOptions = {}): ParsedConfig {
  const value = typeof config === "string" ? parseConfigText(config) : config;
  const servers: ServerConfig[] = [];
  const invalid: ServerConfigError[] = [];
  const skipped: SkippedEntry[] = [];
  for (const [name, raw] of Object.entries(serverMap(value))) {
    const why = notAServer(raw);
    if (why) {
      skipped.push({ name, reason: why });
      continue;
    }
    try {
      servers.push(parseServer(name, raw as Raw, options));
    } catch (error) {
      invalid.push({ name, error: `server "${name}": ${(error as Error).message}` });
    }
  }
  return { servers, invalid, skipped };
}

/** The raw server map of a config (entries as written), for tools that edit or list it. */
export function rawServerMap(config: unknown): Raw {
  return serverMap(config);
}
