// Windsurf (docs.windsurf.com/windsurf/cascade/mcp): ~/.codeium/windsurf/mcp_config.json
// (%USERPROFILE%\.codeium\windsurf on Windows), `mcpServers` with command/args/env, or
// `serverUrl` (or `url`) and headers for remote servers; `disabled: true` keeps one off.
// Interpolation of ${env:VAR} (and ${file:…}) in command, args, env, serverUrl, url, headers.
import { standardDraft } from "./entry";
import { join, unique, user } from "./paths";
import { documentObject, empty, isError, readMap, section } from "./read";
import type { ClientReader } from "./types";

export const windsurf: ClientReader = {
  id: "windsurf",
  label: "Windsurf",
  locations: (machine) => unique([user(join(machine, machine.home, ".codeium", "windsurf", "mcp_config.json"))]),
  read(text, location, machine) {
    const doc = documentObject(text, location.file, "json");
    if (isError(doc)) return { ...empty(), error: doc.error };
    const map = section(doc, "mcpServers", location.file);
    if (map === undefined) return empty();
    if (isError(map)) return { ...empty(), error: map.error };
    return readMap(map, standardDraft, { machine, location, client: "windsurf", dialect: "windsurf" });
  },
};
