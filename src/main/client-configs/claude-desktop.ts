// Claude Desktop: `claude_desktop_config.json`, `mcpServers` with command/args/env (stdio only),
// strict JSON, no variable expansion. macOS ~/Library/Application Support/Claude, Windows
// %APPDATA%\Claude; the community Linux builds use ~/.config/Claude ($XDG_CONFIG_HOME/Claude).
import { standardDraft } from "./entry";
import { appData, join, unique, user } from "./paths";
import { documentObject, empty, isError, readMap, section } from "./read";
import type { ClientReader } from "./types";

export const claudeDesktop: ClientReader = {
  id: "claude-desktop",
  label: "Claude Desktop",
  locations: (machine) =>
    unique([
      user(join(machine, appData(machine), "Claude", "claude_desktop_config.json")),
      ...(machine.platform === "linux" ? [user(join(machine, machine.home, ".config", "Claude", "claude_desktop_config.json"))] : []),
    ]),
  read(text, location, machine) {
    const doc = documentObject(text, location.file, "json");
    if (isError(doc)) return { ...empty(), error: doc.error };
    const map = section(doc, "mcpServers", location.file);
    if (map === undefined) return empty();
    if (isError(map)) return { ...empty(), error: map.error };
    return readMap(map, standardDraft, { machine, location, client: "claude-desktop", dialect: "literal" });
  },
};
