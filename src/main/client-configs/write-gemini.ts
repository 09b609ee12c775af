// Gemini CLI (github.com/google-gemini/gemini-cli docs/tools/mcp-server.md): ~/.gemini/settings.json
// or <project>/.gemini/settings.json, `mcpServers`. Default: the `connect` shim. `--via http`:
// httpUrl (streamable HTTP) + `Authorization: Bearer ${TOOLNEXUS_COMPANION_TOKEN}` (settings
// values expand $VAR / ${VAR} from the environment).
import { shim, TOKEN_ENV } from "./connect-form";
import { join } from "./paths";
import { jsonWriter } from "./writer";

export const geminiWriter = jsonWriter({
  id: "gemini",
  label: "Gemini CLI",
  docs: "https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md",
  defaultVia: "shim",
  http: "env",
  homes: (machine) => [join(machine, machine.home, ".gemini")],
  files: (machine, project) => [project ? join(machine, project, ".gemini", "settings.json") : join(machine, machine.home, ".gemini", "settings.json")],
  servers: () => ["mcpServers"],
  entry: (options) =>
    options.via === "http" ? { httpUrl: options.gatewayUrl, headers: { Authorization: `Bearer \${${TOKEN_ENV}}` } } : shim(options),
});
