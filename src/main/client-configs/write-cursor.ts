// Cursor (cursor.com/docs/context/mcp): ~/.cursor/mcp.json or <project>/.cursor/mcp.json,
// `mcpServers`. Default: the `connect` shim. `--via http`: url + `Authorization: Bearer
// ${env:TOOLNEXUS_COMPANION_TOKEN}` (Cursor interpolates ${env:NAME} in headers).
import { shim, TOKEN_ENV } from "./connect-form";
import { join } from "./paths";
import { jsonWriter } from "./writer";

export const cursorWriter = jsonWriter({
  id: "cursor",
  label: "Cursor",
  docs: "https://cursor.com/docs/context/mcp",
  defaultVia: "shim",
  http: "env",
  homes: (machine) => [join(machine, machine.home, ".cursor")],
  files: (machine, project) => [project ? join(machine, project, ".cursor", "mcp.json") : join(machine, machine.home, ".cursor", "mcp.json")],
  servers: () => ["mcpServers"],
  entry: (options) =>
    options.via === "http" ? { url: options.gatewayUrl, headers: { Authorization: `Bearer \${env:${TOKEN_ENV}}` } } : shim(options),
});
