// Zed (zed.dev/docs/ai/mcp): settings.json `context_servers` — a custom server is {command, args,
// env}, a remote one {url, headers}. Zed expands no variables in settings, so the only HTTP form
// is the token written literally: the default is the `connect` shim, and `--via http` needs
// `--literal-token`.
import { EditError } from "./json-edit";
import { shim } from "./connect-form";
import { appData, join, xdgConfig } from "./paths";
import { jsonWriter } from "./writer";
import type { Machine } from "./types";

const zedDir = (machine: Machine) => (machine.platform === "win32" ? join(machine, appData(machine), "Zed") : join(machine, xdgConfig(machine), "zed"));

export const zedWriter = jsonWriter({
  id: "zed",
  label: "Zed",
  docs: "https://zed.dev/docs/ai/mcp",
  defaultVia: "shim",
  http: "literal",
  homes: (machine) => [zedDir(machine)],
  files: (machine, project) => [project ? join(machine, project, ".zed", "settings.json") : join(machine, zedDir(machine), "settings.json")],
  servers: () => ["context_servers"],
  entry: (options) => {
    if (options.via !== "http") return shim(options);
    if (!options.literalToken) throw new EditError("Zed cannot refer to a secret in its settings: the token would be written in plain text (--literal-token)");
    return { url: options.gatewayUrl, headers: { Authorization: `Bearer ${options.literalToken}` } };
  },
});
