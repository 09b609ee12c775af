// Windsurf (docs.windsurf.com/windsurf/cascade/mcp): ~/.codeium/windsurf/mcp_config.json,
// `mcpServers`. Default: the `connect` shim. `--via http`: serverUrl + `Authorization: Bearer
// ${env:TOOLNEXUS_COMPANION_TOKEN}` (Windsurf interpolates ${env:VAR} in headers).
import { shim, TOKEN_ENV } from "./connect-form";
import { join } from "./paths";
import { jsonWriter } from "./writer";

export const windsurfWriter = jsonWriter({
  id: "windsurf",
  label: "Windsurf",
  docs: "https://docs.windsurf.com/windsurf/cascade/mcp",
  defaultVia: "shim",
  http: "env",
  homes: (machine) => [join(machine, machine.home, ".codeium", "windsurf")],
  files: (machine) => [join(machine, machine.home, ".codeium", "windsurf", "mcp_config.json")],
  servers: () => ["mcpServers"],
  entry: (options) =>
    options.via === "http" ? { serverUrl: options.gatewayUrl, headers: { Authorization: `Bearer \${env:${TOKEN_ENV}}` } } : shim(options),
});
