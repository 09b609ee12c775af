// VS Code's workspace trust, as it records it on disk: the JSON under `content.trust.model.key`
// in `<user data>/User/globalStorage/state.vscdb` (SQLite, table ItemTable), a list of
// `{ uri, trusted }` where the most specific folder wins, unless `security.workspace.trust.enabled`
// is false in the user's settings.json. A project's `.vscode/mcp.json` runs only in a trusted
// folder, so import holds one from a folder VS Code does not trust. Cursor, a fork, ships with
// workspace trust off (the same setting, default false there): it records no decision that gates
// a project's `.cursor/mcp.json`, so nothing is held for Cursor unless that setting turns it on.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { parse } from "jsonc-parser";
import { appData, join, pathApi } from "./paths";
import type { FoundServer, Machine } from "./types";

const TRUST_KEY = "content.trust.model.key";

interface Row {
  value: string | Buffer;
}

function trustEnabled(settingsFile: string, byDefault: boolean): boolean {
  try {
    const settings = parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown> | undefined;
    const value = settings?.["security.workspace.trust.enabled"];
    return typeof value === "boolean" ? value : byDefault;
  } catch {
    return byDefault;
  }
}

/** The trusted / untrusted folders recorded in `db`; undefined when it cannot be read. */
function trustList(db: string): Array<{ path: string; trusted: boolean }> | undefined {
  if (!existsSync(db)) return [];
  try {
    // better-sqlite3 is a native addon; loaded only here, read-only, so VS Code's own writes are never disturbed.
    const Database = createRequire(import.meta.url)("better-sqlite3") as new (file: string, options: object) => { prepare(sql: string): { get(key: string): Row | undefined }; close(): void };
    const handle = new Database(db, { readonly: true, fileMustExist: true, timeout: 2000 });
    try {
      const row = handle.prepare("SELECT value FROM ItemTable WHERE key = ?").get(TRUST_KEY);
      if (!row) return [];
      const model = JSON.parse(String(row.value)) as { uriTrustInfo?: Array<{ uri?: { scheme?: string; path?: string }; trusted?: boolean }> };
      return (model.uriTrustInfo ?? []).flatMap((info) => (info.uri?.scheme === "file" && typeof info.uri.path === "string" ? [{ path: info.uri.path, trusted: info.trusted === true }] : []));
    } finally {
      handle.close();
    }
  } catch {
    return undefined;
  }
}

/** Why `dir` is not trusted by the editor whose user data is `userData`, or undefined when it is. */
function editorTrust(machine: Machine, label: string, edition: string, dir: string, trustOnByDefault: boolean): string | undefined {
  const userData = join(machine, appData(machine), edition, "User");
  if (!trustEnabled(join(machine, userData, "settings.json"), trustOnByDefault)) return undefined;
  const db = join(machine, userData, "globalStorage", "state.vscdb");
  const list = trustList(db);
  if (list === undefined) return `not trusted in ${label}: its workspace trust (${db}) could not be read, so it is not known that ${label} runs this folder's servers`;
  const path = pathApi(machine);
  const normal = (p: string) => path.normalize(machine.platform === "win32" ? p.replace(/^\/([A-Za-z]:)/, "$1") : p).replace(/[\\/]+$/, "");
  const target = normal(dir);
  let best: { length: number; trusted: boolean } | undefined;
  for (const entry of list) {
    const folder = normal(entry.path);
    const within = target === folder || target.startsWith(`${folder}${path.sep}`);
    if (within && (!best || folder.length > best.length)) best = { length: folder.length, trusted: entry.trusted };
  }
  if (best?.trusted) return undefined;
  return `not trusted in ${label}: ${dir} is not a folder you trusted in ${label} (Manage Workspace Trust), so it does not run this folder's servers`;
}

/** Marks project-scope servers of a VS Code or Cursor report the editor would not run. */
export function markEditorTrust(servers: FoundServer[], machine: Machine, client: "vscode" | "cursor"): void {
  for (const server of servers) {
    const scope = server.from.scope ?? "";
    if (!scope.startsWith("project:")) continue;
    const dir = scope.slice("project:".length);
    const why = client === "vscode" ? editorTrust(machine, "VS Code", "Code", dir, true) : editorTrust(machine, "Cursor", "Cursor", dir, false);
    if (why) server.untrusted = why;
  }
}
