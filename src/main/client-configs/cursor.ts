// Cursor (cursor.com/docs/context/mcp): ~/.cursor/mcp.json (global) and <project>/.cursor/mcp.json,
// `mcpServers` with command/args/env/envFile (stdio) or url/headers (SSE or streamable HTTP).
// Interpolation: ${env:NAME}, ${userHome}, ${workspaceFolder}, ${workspaceFolderBasename},
// ${pathSeparator} / ${/} — VS Code's spelling.
import { standardDraft } from "./entry";
import { join, project, unique, user } from "./paths";
import { documentObject, empty, isError, readMap, section } from "./read";
import type { ClientReader } from "./types";

export const cursor: ClientReader = {
  id: "cursor",
  label: "Cursor",
  locations: (machine) => unique([user(join(machine, machine.home, ".cursor", "mcp.json")), ...project(machine, ".cursor", "mcp.json")]),
  read(text, location, machine) {
    // Cursor is a VS Code fork and reads this file as JSONC.
    const doc = documentObject(text, location.file, "jsonc");
    if (isError(doc)) return { ...empty(), error: doc.error };
    const map = section(doc, "mcpServers", location.file);
    if (map === undefined) return empty();
    if (isError(map)) return { ...empty(), error: map.error };
    return readMap(map, standardDraft, { machine, location, client: "cursor", dialect: "vscode" });
  },
};
