// Gemini CLI (github.com/google-gemini/gemini-cli docs/tools/mcp-server.md, docs/cli/configuration.md):
// ~/.gemini/settings.json and <project>/.gemini/settings.json, `mcpServers` with command/args/env/
// cwd (stdio), `url` (SSE) or `httpUrl` (streamable HTTP) with headers, and `timeout` in ms per
// request. String values may use $VAR or ${VAR}. Everything else in settings.json (theme, the
// `mcp` allow-list, …) is a setting, not a server.
import { NotImportable, positive, standardDraft, type Draft, type Raw } from "./entry";
import { join, project, unique, user } from "./paths";
import { documentObject, empty, isError, readMap, section } from "./read";
import type { ClientReader } from "./types";

function geminiDraft(raw: Raw): Draft {
  const draft = standardDraft(raw);
  if (raw.httpUrl !== undefined && raw.url !== undefined) throw new NotImportable("it gives both `url` and `httpUrl`");
  // Gemini's `url` is an SSE endpoint and `httpUrl` a streamable HTTP one.
  if (raw.httpUrl !== undefined) draft.transport = "streamable-http";
  else if (raw.url !== undefined) draft.transport = "sse";
  return { ...draft, timeout: undefined, callTimeout: positive(raw, "timeout") };
}

export const gemini: ClientReader = {
  id: "gemini",
  label: "Gemini CLI",
  locations: (machine) => unique([user(join(machine, machine.home, ".gemini", "settings.json")), ...project(machine, ".gemini", "settings.json")]),
  read(text, location, machine) {
    // Gemini CLI strips comments from settings.json before parsing it.
    const doc = documentObject(text, location.file, "jsonc");
    if (isError(doc)) return { ...empty(), error: doc.error };
    const map = section(doc, "mcpServers", location.file);
    if (map === undefined) return empty();
    if (isError(map)) return { ...empty(), error: map.error };
    return readMap(map, geminiDraft, { machine, location, client: "gemini", dialect: "gemini" });
  },
};
