// opencode (opencode.ai/docs/mcp-servers): opencode.json / opencode.jsonc in ~/.config/opencode or
// the project root, `mcp` (V1) or `mcp.servers` (V2, used when the file already has it). Local:
// {type: "local", command: [cmd, …args], environment}; remote: {type: "remote", url, headers}.
// Default: the `connect` shim. `--via http`: `Authorization: Bearer {env:TOOLNEXUS_COMPANION_TOKEN}`
// (opencode substitutes {env:VAR} anywhere in its config).
import { shim, TOKEN_ENV } from "./connect-form";
import { join, xdgConfig } from "./paths";
import { jsonWriter } from "./writer";
import { isPlainObject } from "../../shared/unknown-value";

const NAMES = ["opencode.json", "opencode.jsonc"];

function isV2(doc: unknown): boolean {
  const mcp = isPlainObject(doc) ? doc.mcp : undefined;
  return isPlainObject(mcp) && isPlainObject(mcp.servers) && !("type" in mcp.servers) && !("command" in mcp.servers) && !("url" in mcp.servers);
}

export const opencodeWriter = jsonWriter({
  id: "opencode",
  label: "opencode",
  docs: "https://opencode.ai/docs/mcp-servers",
  defaultVia: "shim",
  http: "env",
  homes: (machine) => [join(machine, xdgConfig(machine), "opencode")],
  files: (machine, project) => NAMES.map((n) => (project ? join(machine, project, n) : join(machine, xdgConfig(machine), "opencode", n))),
  servers: (doc) => (isV2(doc) ? ["mcp", "servers"] : ["mcp"]),
  entry: (options) => {
    if (options.via === "http") return { type: "remote", url: options.gatewayUrl, headers: { Authorization: `Bearer {env:${TOKEN_ENV}}` }, enabled: true };
    const s = shim(options);
    return { type: "local", command: [s.command, ...s.args], ...(s.env ? { environment: s.env } : {}), enabled: true };
  },
});
