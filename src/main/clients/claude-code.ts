// Claude Code (code.claude.com/docs/en/mcp): user-scope servers in ~/.claude.json `mcpServers`,
// local-scope servers in ~/.claude.json `projects["/path"].mcpServers`, project-scope servers in
// the project's `.mcp.json`. `type` is stdio (default), http or sse. `${VAR}` and
// `${VAR:-default}` expand in command, args, env, url and headers — the companion's own syntax.
// A project's servers run in that project's folder.
import { standardDraft } from "./entry";
import { join, project, unique, user } from "./paths";
import { documentObject, empty, isError, readMap, section } from "./read";
import type { ClientReader, Machine, ReadResult } from "./types";
import { isObject } from "./entry";

function claudeJson(machine: Machine): string {
  const dir = machine.env.CLAUDE_CONFIG_DIR;
  return dir ? join(machine, dir, ".claude.json") : join(machine, machine.home, ".claude.json");
}

export const claudeCode: ClientReader = {
  id: "claude-code",
  label: "Claude Code",
  locations: (machine) => unique([user(claudeJson(machine)), ...project(machine, ".mcp.json")]),
  read(text, location, machine) {
    const doc = documentObject(text, location.file, "json");
    if (isError(doc)) return { ...empty(), error: doc.error };
    const result: ReadResult = empty();
    const top = section(doc, "mcpServers", location.file);
    if (isError(top)) return { ...empty(), error: top.error };
    if (top) readMap(top, standardDraft, { machine, location, client: "claude-code", dialect: "claude-code" }, result);
    // ~/.claude.json also keeps per-project (local scope) servers; `.mcp.json` has no `projects`.
    if (location.scope === "user" && isObject(doc.projects)) {
      for (const [dir, settings] of Object.entries(doc.projects)) {
        if (!isObject(settings) || !isObject(settings.mcpServers)) continue;
        readMap(settings.mcpServers, standardDraft, { machine, location, client: "claude-code", dialect: "claude-code", scope: `local:${dir}`, project: dir }, result);
      }
    }
    return result;
  },
};

/** The project folders ~/.claude.json knows, whose `.mcp.json` Claude Code reads in each. */
export function claudeCodeProjects(text: string): string[] {
  try {
    const doc = JSON.parse(text) as unknown;
    return isObject(doc) && isObject(doc.projects) ? Object.keys(doc.projects) : [];
  } catch {
    return [];
  }
}
