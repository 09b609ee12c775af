// Claude Desktop (modelcontextprotocol.io/quickstart/user): claude_desktop_config.json `mcpServers`
// launches local servers only — a remote one is added in the app (Settings → Connectors), not in
// this file. So the companion is the `connect` shim, which reads the token from the keychain.
import { shim } from "./connect-form";
import { appData, join } from "./paths";
import { jsonWriter } from "./writer";

export const claudeDesktopWriter = jsonWriter({
  id: "claude-desktop",
  label: "Claude Desktop",
  docs: "https://modelcontextprotocol.io/quickstart/user",
  defaultVia: "shim",
  http: "none",
  homes: (machine) => [join(machine, appData(machine), "Claude"), ...(machine.platform === "linux" ? [join(machine, machine.home, ".config", "Claude")] : [])],
  files: (machine) => [
    join(machine, appData(machine), "Claude", "claude_desktop_config.json"),
    ...(machine.platform === "linux" ? [join(machine, machine.home, ".config", "Claude", "claude_desktop_config.json")] : []),
  ],
  servers: () => ["mcpServers"],
  entry: (options) => shim(options),
});
