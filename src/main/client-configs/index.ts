// The map of known clients and discovery: which files exist on this machine, and what each holds.
// Readers only read; nothing here writes another client's files.
import { readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, resolve } from "node:path";
import { markEditorTrust } from "./workspace-trust";
import { claudeCode, claudeCodeProjectMap, claudeCodeProjects, markClaudeCodeTrust } from "./claude-code";
import { claudeDesktop } from "./claude-desktop";
import { codex } from "./codex";
import { cursor } from "./cursor";
import { gemini } from "./gemini";
import { opencode } from "./opencode";
import { join } from "./paths";
import { vscode } from "./vscode";
import { windsurf } from "./windsurf";
import { zed } from "./zed";
import type { ClientId, ClientReader, FoundServer, Location, Machine, SkippedServer } from "./types";

export type { ClientId, ClientReader, CompanionEntry, FoundServer, InputMeta, Machine, SkippedServer, Source } from "./types";

/** Every client we read, in the order their servers are offered (and win a clashing name). */
export const CLIENTS: readonly ClientReader[] = [claudeDesktop, claudeCode, cursor, vscode, windsurf, zed, opencode, codex, gemini];

/**
 * A client's settings file we are willing to read. ~/.claude.json also keeps Claude Code's
 * per-project history and grows to tens of MiB on busy machines; past 64 MiB it is not read.
 */
export const MAX_CLIENT_FILE_BYTES = 64 * 1024 * 1024;

const ALIASES: Record<string, ClientId> = {
  claude: "claude-desktop",
  "claude-desktop": "claude-desktop",
  "claude-code": "claude-code",
  cursor: "cursor",
  vscode: "vscode",
  code: "vscode",
  "vs-code": "vscode",
  windsurf: "windsurf",
  zed: "zed",
  opencode: "opencode",
  codex: "codex",
  gemini: "gemini",
  "gemini-cli": "gemini",
};

export function clientById(name: string): ClientReader | undefined {
  const id = ALIASES[name.toLowerCase()];
  return CLIENTS.find((c) => c.id === id);
}

/** This process's machine: HOME, environment, platform, and the folder it runs in as the project. */
export function currentMachine(project: string = process.cwd()): Machine {
  return { platform: process.platform, home: homedir(), env: process.env, project };
}

/** What one file held. */
export interface FileReport {
  client: ClientId;
  label: string;
  file: string;
  scope: string;
  servers: FoundServer[];
  skipped: SkippedServer[];
  error?: string;
}

async function readText(file: string): Promise<{ text?: string; error?: string }> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return { error: `${file} is not a file` };
    if (info.size > MAX_CLIENT_FILE_BYTES) return { error: `${file} is ${info.size} bytes; files over ${MAX_CLIENT_FILE_BYTES} bytes are not read` };
    return { text: await readFile(file, "utf8") };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return {};
    return { error: `${file} cannot be read: ${code ?? (error as Error).message}` };
  }
}

async function readLocation(client: ClientReader, location: Location, machine: Machine): Promise<FileReport | undefined> {
  const { text, error } = await readText(location.file);
  const base = { client: client.id, label: client.label, file: location.file, scope: location.scope };
  if (error) return { ...base, servers: [], skipped: [], error };
  if (text === undefined) return undefined;
  const result = client.read(text, location, machine);
  return { ...base, ...result };
}

/** Reads every file `clients` use on `machine`; files that do not exist are left out. */
export async function discover(machine: Machine, clients: readonly ClientReader[] = CLIENTS): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  // ~/.claude.json's per-project trust; read with its user-scope file, which comes first.
  let claudeProjects: Record<string, unknown> = {};
  for (const client of clients) {
    const locations = client.locations(machine);
    for (const location of locations) {
      const report = await readLocation(client, location, machine);
      if (report) reports.push(report);
      // Claude Code reads `.mcp.json` in each project it knows: those are project servers too.
      if (client.id === "claude-code" && location.scope === "user") {
        const { text } = await readText(location.file);
        claudeProjects = claudeCodeProjectMap(text);
        const seen = new Set(locations.map((l) => l.file));
        for (const dir of text ? claudeCodeProjects(text) : []) {
          const file = join(machine, dir, ".mcp.json");
          if (seen.has(file)) continue;
          seen.add(file);
          const extra = await readLocation(client, { file, scope: `project:${dir}`, project: dir }, machine);
          if (extra) reports.push(extra);
        }
      }
      // A project's `.mcp.json` runs in Claude Code only once the person trusted it there.
      if (client.id === "claude-code") for (const r of reports) if (r.client === "claude-code") markClaudeCodeTrust(r.servers, claudeProjects);
      // VS Code runs a project's `.vscode/mcp.json` only in a folder it trusts (workspace-trust.ts).
      if (report && (client.id === "vscode" || client.id === "cursor")) markEditorTrust(report.servers, machine, client.id);
    }
  }
  return reports;
}

/** Which client a file belongs to, by its path and name (and, for a bare mcp.json, its content). */
function guessClient(file: string, text: string): ClientReader {
  const name = basename(file);
  const parent = basename(dirname(file));
  if (name === "claude_desktop_config.json") return claudeDesktop;
  if (name === ".claude.json" || name === ".mcp.json") return claudeCode;
  if (name === "mcp_config.json") return windsurf;
  if (name.endsWith(".toml")) return codex;
  if (name.startsWith("opencode.json")) return opencode;
  if (parent === ".cursor") return cursor;
  if (parent === ".vscode" || parent === "User") return vscode;
  if (parent === ".gemini") return gemini;
  if (parent === ".zed" || parent === "zed" || parent === "Zed") return zed;
  if (/"context_servers"\s*:/.test(text)) return zed;
  if (/"servers"\s*:/.test(text) && !/"mcpServers"\s*:/.test(text)) return vscode;
  if (/"mcp"\s*:/.test(text) && !/"mcpServers"\s*:/.test(text)) return opencode;
  return claudeCode;
}

/** `--from`: a client's name (every file it uses) or a path to one file, read as its client would. */
export async function readFrom(spec: string, machine: Machine): Promise<FileReport[] | { error: string }> {
  const client = clientById(spec);
  if (client) return discover(machine, [client]);
  const file = resolve(machine.project ?? process.cwd(), spec);
  const { text, error } = await readText(file);
  if (error) return { error };
  if (text === undefined) {
    return { error: `"${spec}" is neither a file nor a client (${CLIENTS.map((c) => c.id).join(", ")})` };
  }
  const guessed = guessClient(file, text);
  // A project file (…/.vscode/mcp.json, …/.mcp.json) belongs to the folder it sits in.
  const inDotFolder = basename(dirname(file)).startsWith(".");
  let projectDir = inDotFolder ? dirname(dirname(file)) : basename(file) === ".mcp.json" || basename(file).startsWith("opencode.json") ? dirname(file) : undefined;
  // ~/.cursor/mcp.json, ~/.gemini/settings.json: user files, not a project that is HOME.
  if (projectDir === machine.home) projectDir = undefined;
  const location: Location = projectDir ? { file, scope: `project:${projectDir}`, project: projectDir } : { file, scope: "file" };
  const result = guessed.read(text, location, machine);
  if (guessed.id === "claude-code" && projectDir) {
    const claudeJson = claudeCode.locations({ ...machine, project: undefined })[0].file;
    markClaudeCodeTrust(result.servers, claudeCodeProjectMap((await readText(claudeJson)).text));
  }
  if ((guessed.id === "vscode" || guessed.id === "cursor") && projectDir) markEditorTrust(result.servers, machine, guessed.id);
  return [{ client: guessed.id, label: guessed.label, file, scope: location.scope, ...result }];
}
