// Claude Code (code.claude.com/docs/en/mcp): user-scope servers in ~/.claude.json `mcpServers`,
// local-scope servers in ~/.claude.json `projects["/path"].mcpServers`, project-scope servers in
// the project's `.mcp.json`. `type` is stdio (default), http or sse. `${VAR}` and
// `${VAR:-default}` expand in command, args, env, url and headers — the companion's own syntax.
// A project's servers run in that project's folder.
import { standardDraft } from "./entry";
import { join, project, unique, user } from "./paths";
import { documentObject, empty, isError, readMap, section } from "./read";
import type { ClientReader, FoundServer, Machine, ReadResult } from "./types";
import { isPlainObject } from "../../shared/unknown-value";

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
    if (location.scope === "user" && isPlainObject(doc.projects)) {
      for (const [dir, settings] of Object.entries(doc.projects)) {
        if (!isPlainObject(settings) || !isPlainObject(settings.mcpServers)) continue;
        readMap(settings.mcpServers, standardDraft, { machine, location, client: "claude-code", dialect: "claude-code", scope: `local:${dir}`, project: dir }, result);
      }
    }
    return result;
  },
};

/**
 * Whether Claude Code would run project server `name` from `dir`'s `.mcp.json`, from what
 * ~/.claude.json records per project: `hasTrustDialogAccepted` (the folder's trust dialog),
 * `disabledMcpjsonServers` (servers the person turned down), `enabledMcpjsonServers` (approved
 * ones) and `enableAllProjectMcpServers` (approve every one). Claude Code asks before it runs a
 * `.mcp.json` server, so one never approved has not been run by it either. Undefined: it would.
 */
function claudeCodeProjectTrust(projects: Record<string, unknown>, dir: string, name: string): string | undefined {
  const settings = projects[dir];
  if (!isPlainObject(settings) || settings.hasTrustDialogAccepted !== true) {
    return `not trusted in Claude Code: you have not accepted Claude Code's trust dialog for ${dir}, so it never ran this server`;
  }
  const listed = (key: string) => Array.isArray(settings[key]) && (settings[key] as unknown[]).includes(name);
  if (listed("disabledMcpjsonServers")) return `disabled in Claude Code: you turned "${name}" down for ${dir}`;
  if (settings.enableAllProjectMcpServers !== true && !listed("enabledMcpjsonServers")) {
    return `not trusted in Claude Code: "${name}" in ${dir}/.mcp.json was never approved there`;
  }
  return undefined;
}

/** The `projects` map of ~/.claude.json's text, `{}` when there is none or it does not parse. */
export function claudeCodeProjectMap(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const doc = JSON.parse(text) as unknown;
    return isPlainObject(doc) && isPlainObject(doc.projects) ? doc.projects : {};
  } catch {
    return {};
  }
}

/** Marks each project-scope server of a `.mcp.json` report Claude Code would not run. */
export function markClaudeCodeTrust(servers: FoundServer[], projects: Record<string, unknown>): void {
  for (const server of servers) {
    const scope = server.from.scope ?? "";
    if (!scope.startsWith("project:")) continue;
    const why = claudeCodeProjectTrust(projects, scope.slice("project:".length), server.name);
    if (why) server.untrusted = why;
  }
}

/** The project folders ~/.claude.json knows, whose `.mcp.json` Claude Code reads in each. */
export function claudeCodeProjects(text: string): string[] {
  try {
    const doc = JSON.parse(text) as unknown;
    return isPlainObject(doc) && isPlainObject(doc.projects) ? Object.keys(doc.projects) : [];
  } catch {
    return [];
  }
}
