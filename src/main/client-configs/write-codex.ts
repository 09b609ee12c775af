// Codex (developers.openai.com/codex/mcp, config reference): $CODEX_HOME/config.toml (default
// ~/.codex/config.toml) or <project>/.codex/config.toml, one `[mcp_servers.toolnexus]` table.
// Default: the `connect` shim (command, args, env). `--via http`: `url` plus
// `bearer_token_env_var = "TOOLNEXUS_COMPANION_TOKEN"` — Codex reads the token from that variable.
// The table is appended or taken out as text, so every other byte of the file stays.
import { ENTRY_NAME, shim, TOKEN_ENV, type ConnectOptions } from "./connect-form";
import { isDeepStrictEqual } from "node:util";
import { join } from "./paths";
import { appendTable, parseToml, removeTableCandidates, tomlValueAt, type TomlValue } from "./toml-edit";
import type { ClientWriter } from "./writer";
import type { Machine } from "./types";

const PATH = ["mcp_servers", ENTRY_NAME];
const codexHome = (machine: Machine) => machine.env.CODEX_HOME || join(machine, machine.home, ".codex");

function table(options: ConnectOptions): Record<string, TomlValue> {
  if (options.via === "http") return { url: options.gatewayUrl, bearer_token_env_var: TOKEN_ENV };
  const s = shim(options);
  return { command: s.command, args: s.args, ...(s.env ? { env: s.env } : {}) };
}

export const codexWriter: ClientWriter = {
  id: "codex",
  label: "Codex",
  docs: "https://developers.openai.com/codex/mcp",
  defaultVia: "shim",
  http: "env",
  homes: (machine) => [codexHome(machine)],
  files: (machine, project) => [project ? join(machine, project, ".codex", "config.toml") : join(machine, codexHome(machine), "config.toml")],
  connect(text, options) {
    const values = table(options);
    const current = tomlValueAt(parseToml(text), PATH);
    if (isDeepStrictEqual(current, values)) return text;
    const base = current === undefined ? text : removeTableCandidates(text, PATH)[0];
    return appendTable(base, PATH, values);
  },
  disconnect(text) {
    return removeTableCandidates(text, PATH);
  },
};
