// Import as a plan first, then as an edit: which found servers are new, which the companion
// already has, what each new one is called. The same server (same command and args, or same url)
// found in several clients is imported once with every source listed; different servers that
// share a name are kept apart visibly (`github`, `github@cursor`), never merged.
import { applyEdits, modify } from "jsonc-parser";
import { rawServerMap, serverMapPath } from "../mcp/config/parse";
import type { FileReport } from "./index";
import { literalSecrets, type LiteralSecret } from "./literal-secrets";
import type { CompanionEntry, FoundServer, SkippedServer, Source } from "./types";
import { isPlainObject } from "../../shared/unknown-value";

type Raw = Record<string, unknown>;

export interface PlannedServer {
  /** Its name in the companion's config. */
  name: string;
  entry: CompanionEntry;
  from: Source[];
  /** `add`: written by this import; `unchanged`: the companion already has this server. */
  action: "add" | "unchanged";
  /** The client's own name, when the companion's differs. */
  clientName?: string;
  /** Why its client would not run it (every source untrusted); imported only when picked by name. */
  untrusted?: string;
  /** Credentials written inline in its env or headers (names only). */
  literals?: LiteralSecret[];
}

export interface ImportPlan {
  servers: PlannedServer[];
  skipped: SkippedServer[];
  /** Files that could not be read at all. */
  errors: { file: string; error: string }[];
  /** Where servers live in the companion's file (`mcpServers`, `mcp.servers`, … or the top). */
  wrapper: string[];
}

/** What makes two entries the same server: the command line, or the URL. */
export function identity(raw: unknown): string | undefined {
  if (!isPlainObject(raw)) return undefined;
  const url = [raw.url, raw.serverUrl, raw.httpUrl].find((u) => typeof u === "string");
  if (typeof url === "string") {
    try {
      return `remote ${new URL(url).href}`;
    } catch {
      return `remote ${url}`;
    }
  }
  let line: unknown[] | undefined;
  if (typeof raw.command === "string") line = [raw.command, ...(Array.isArray(raw.args) ? raw.args : [])];
  else if (Array.isArray(raw.command)) line = [...raw.command, ...(Array.isArray(raw.args) ? raw.args : [])];
  else if (isPlainObject(raw.command) && typeof raw.command.path === "string") line = [raw.command.path, ...(Array.isArray(raw.command.args) ? raw.command.args : [])];
  return line ? `local ${JSON.stringify(line.map(String))}` : undefined;
}

/**
 * Plans importing `reports` into the companion config `existing` (its parsed value; `{}` when the
 * file does not exist yet). Throws McpConfigError when `existing` has no usable server map.
 */
export function planImport(existing: unknown, reports: readonly FileReport[]): ImportPlan {
  const current = rawServerMap(existing ?? {});
  const byIdentity = new Map<string, string>();
  for (const [name, raw] of Object.entries(current)) {
    const id = identity(raw);
    if (id && !byIdentity.has(id)) byIdentity.set(id, name);
  }
  const taken = new Set(Object.keys(current));
  const planned = new Map<string, PlannedServer>();
  const skipped: SkippedServer[] = [];
  const errors: ImportPlan["errors"] = [];

  for (const report of reports) {
    if (report.error) errors.push({ file: report.file, error: report.error });
    skipped.push(...report.skipped);
    for (const found of report.servers) {
      const id = identity(found.entry)!;
      const seen = planned.get(id);
      if (seen) {
        seen.from.push(found.from);
        // Trusted anywhere it is listed (a user-scope copy of a project's server): it runs there already.
        if (!found.untrusted) delete seen.untrusted;
        continue;
      }
      const existingName = byIdentity.get(id);
      if (existingName !== undefined) {
        planned.set(id, { name: existingName, entry: found.entry, from: [found.from], action: "unchanged", ...(existingName !== found.name ? { clientName: found.name } : {}) });
        continue;
      }
      let name = found.name;
      if (taken.has(name)) {
        name = `${found.name}@${found.from.client}`;
        for (let n = 2; taken.has(name); n++) name = `${found.name}@${found.from.client}-${n}`;
      }
      taken.add(name);
      planned.set(id, { name, entry: found.entry, from: [found.from], action: "add", ...(name !== found.name ? { clientName: found.name } : {}), ...flags(name, found) });
    }
  }
  return { servers: [...planned.values()], skipped, errors, wrapper: serverMapPath(existing ?? {}) };
}

function flags(name: string, found: FoundServer): Pick<PlannedServer, "untrusted" | "literals"> {
  const literals = literalSecrets(name, found.entry);
  return { ...(found.untrusted ? { untrusted: found.untrusted } : {}), ...(literals.length ? { literals } : {}) };
}

/** The entry as written: the server, then where it came from (`importedFrom`, ignored when run). */
function entryToWrite(server: PlannedServer): Raw {
  return { ...server.entry, importedFrom: server.from.map((s) => ({ ...s })) };
}

/**
 * The companion's config text with the plan's new servers added. Edits the text in place
 * (jsonc-parser), so comments, formatting, unknown keys and existing servers stay as they were.
 */
export function applyPlan(text: string, plan: ImportPlan): string {
  let out = text.trim() === "" ? "{}\n" : text;
  for (const server of plan.servers) {
    if (server.action !== "add") continue;
    const edits = modify(out, [...plan.wrapper, server.name], entryToWrite(server), { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } });
    out = applyEdits(out, edits);
  }
  return out.endsWith("\n") ? out : `${out}\n`;
}
