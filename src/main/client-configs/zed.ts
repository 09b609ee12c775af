// Zed (zed.dev/docs/ai/mcp): settings.json `context_servers` — JSONC, at $XDG_CONFIG_HOME/zed or
// ~/.config/zed (Linux and macOS), %APPDATA%\Zed on Windows, and <project>/.zed/settings.json.
// A custom server is {command, args, env} (older: `source: "custom"`, or command: {path, args,
// env}); a remote one is {url, headers}. Servers an extension provides carry only `settings`:
// the extension knows how to start them, so they are skipped with that reason. No interpolation.
import { NotImportable, standardDraft, strList, strMap, type Draft, type Raw } from "./entry";
import { appData, join, project, unique, user, xdgConfig } from "./paths";
import { documentObject, empty, isError, readMap, section } from "./read";
import type { ClientReader } from "./types";
import { isPlainObject } from "../../shared/unknown-value";

function zedDraft(raw: Raw): Draft {
  if (isPlainObject(raw.command)) {
    const command = raw.command;
    if (typeof command.path !== "string") throw new NotImportable("`command.path` is not a string");
    return { command: command.path, args: strList(command, "args"), env: strMap(command, "env"), disabled: raw.enabled === false };
  }
  if (raw.command === undefined && raw.url === undefined) {
    throw new NotImportable(
      raw.source === "extension" || "settings" in raw ? "provided by a Zed extension, which knows how to start it; install the server itself to import it" : "it has no `command` or `url`",
    );
  }
  return standardDraft(raw);
}

export const zed: ClientReader = {
  id: "zed",
  label: "Zed",
  locations: (machine) =>
    unique([
      user(machine.platform === "win32" ? join(machine, appData(machine), "Zed", "settings.json") : join(machine, xdgConfig(machine), "zed", "settings.json")),
      ...project(machine, ".zed", "settings.json"),
    ]),
  read(text, location, machine) {
    const doc = documentObject(text, location.file, "jsonc");
    if (isError(doc)) return { ...empty(), error: doc.error };
    const map = section(doc, "context_servers", location.file);
    if (map === undefined) return empty();
    if (isError(map)) return { ...empty(), error: map.error };
    return readMap(map, zedDraft, { machine, location, client: "zed", dialect: "literal" });
  },
};
