// Codex (developers.openai.com/codex/mcp, config reference): $CODEX_HOME/config.toml (default
// ~/.codex/config.toml) and <project>/.codex/config.toml, TOML tables `[mcp_servers.NAME]`.
// stdio: command, args, env (table), env_vars (names forwarded from Codex's environment), cwd;
// streamable HTTP: url, bearer_token_env_var, http_headers, env_http_headers (header → variable).
// enabled = false turns one off; startup_timeout_sec / startup_timeout_ms, tool_timeout_sec.
// Codex expands no `${…}`: values are literal, and variables are named in env_vars & co.
import { NotImportable, positive, str, strList, strMap, type Draft, type Raw } from "./entry";
import { join, project, unique, user } from "./paths";
import { documentObject, empty, isError, readMap } from "./read";
import type { ClientReader } from "./types";
import { isPlainObject } from "../../shared/unknown-value";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function variable(name: unknown, what: string): string {
  if (typeof name !== "string" || !NAME.test(name)) throw new NotImportable(`${what} is not an environment variable name`);
  return `\${${name}}`;
}

function codexDraft(raw: Raw): Draft {
  const timeout = positive(raw, "startup_timeout_sec", 1000) ?? positive(raw, "startup_timeout_ms");
  const common = { disabled: raw.enabled === false, timeout, callTimeout: positive(raw, "tool_timeout_sec", 1000) };
  if (raw.url !== undefined) {
    const headers: Record<string, string> = { ...(strMap(raw, "http_headers") ?? {}) };
    for (const [header, name] of Object.entries(strMap(raw, "env_http_headers") ?? {})) headers[header] = variable(name, `env_http_headers.${header}`);
    if (raw.bearer_token_env_var !== undefined) headers.Authorization = `Bearer ${variable(raw.bearer_token_env_var, "bearer_token_env_var")}`;
    return { ...common, url: str(raw, "url"), headers, transport: "streamable-http" };
  }
  const env: Record<string, string> = { ...(strMap(raw, "env") ?? {}) };
  if (raw.env_vars !== undefined) {
    if (!Array.isArray(raw.env_vars)) throw new NotImportable("`env_vars` is not a list");
    for (const item of raw.env_vars) {
      const name = isPlainObject(item) ? item.name : item;
      env[String(name)] = variable(name, "an `env_vars` entry");
    }
  }
  return { ...common, command: str(raw, "command"), args: strList(raw, "args"), env, cwd: str(raw, "cwd") };
}

function codexHome(machine: Parameters<ClientReader["locations"]>[0]): string {
  return machine.env.CODEX_HOME || join(machine, machine.home, ".codex");
}

export const codex: ClientReader = {
  id: "codex",
  label: "Codex",
  locations: (machine) => unique([user(join(machine, codexHome(machine), "config.toml")), ...project(machine, ".codex", "config.toml")]),
  read(text, location, machine) {
    const doc = documentObject(text, location.file, "toml");
    if (isError(doc)) return { ...empty(), error: doc.error };
    if (doc.mcp_servers === undefined) return empty();
    if (!isPlainObject(doc.mcp_servers)) return { ...empty(), error: `${location.file}: "mcp_servers" is not a table of servers` };
    return readMap(doc.mcp_servers, codexDraft, { machine, location, client: "codex", dialect: "literal" });
  },
};
