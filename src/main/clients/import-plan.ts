// Import as the CLI and the app both do it: read the companion's own config, read what other
// clients hold (every client, or the one `from` names), plan (./plan.ts), and write only the
// picked new servers. The app shows the plan per client and file; the CLI prints it.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { ImportCandidate, ImportGroup, ServerImportPlan } from "../../shared/server-import";
import { parseConfigText } from "../mcp/config";
import { FileWriteError } from "../base/fs-errors";
import { editConfigFile } from "../mcp/config-edit";
import { discover, readFrom, type FileReport } from "./index";
import { applyPlan, identity, planImport, type ImportPlan, type PlannedServer } from "./plan";
import { redactArgs, redactUrl } from "./redact-view";
import type { CompanionEntry, Machine } from "./types";

export interface CompanionText {
  text: string;
  value: unknown;
}

/** The companion's config as text and value; a missing or empty file is `{}`. */
export async function readCompanion(path: string): Promise<CompanionText | { error: string }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { text: "", value: {} };
    return { error: `cannot read ${path}: ${(error as Error).message}` };
  }
  if (text.trim() === "") return { text, value: {} };
  try {
    return { text, value: parseConfigText(text, path) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

export interface BuiltImport {
  path: string;
  companion: CompanionText;
  reports: FileReport[];
  plan: ImportPlan;
}

/**
 * Reads and plans. `from` is a client's name or a file (as `--from`). Errors are sentences:
 * an unreadable companion config, an unknown `from`, a companion config with no server map.
 */
export async function buildImport(path: string, machine: Machine, from?: string): Promise<BuiltImport | { error: string }> {
  const companion = await readCompanion(path);
  if ("error" in companion) return { error: `${companion.error}\nFix the companion's config first; import changes nothing in a file it cannot read.` };
  let reports: FileReport[];
  if (from) {
    const found = await readFrom(from, machine);
    if ("error" in found) return { error: found.error };
    reports = found;
  } else {
    reports = await discover(machine);
  }
  try {
    return { path, companion, reports, plan: planImport(companion.value, reports) };
  } catch (error) {
    return { error: `${path}: ${(error as Error).message}` };
  }
}

export function typeOf(entry: CompanionEntry): "local" | "remote" {
  return entry.url ? "remote" : "local";
}

/** What the page is shown: never env or headers, and tokens written inline masked (redact-view.ts). */
function shape(entry: CompanionEntry): Pick<ImportCandidate, "type" | "command" | "args" | "url"> {
  return entry.url ? { type: "remote", url: redactUrl(entry.url) } : { type: "local", command: entry.command ?? "", args: redactArgs(entry.args ?? []) };
}

/** The plan per client and file, in discovery order, each found server with what importing it does. */
export function importGroups(built: BuiltImport): ImportGroup[] {
  const byIdentity = new Map<string, PlannedServer>();
  for (const s of built.plan.servers) byIdentity.set(identity(s.entry)!, s);
  const labels = new Map(built.reports.map((r) => [r.client, r.label]));
  const files = built.reports.filter((r) => r.servers.length + r.skipped.length > 0 || r.error);
  return files.map((report) => {
    const servers: ImportCandidate[] = [];
    for (const found of report.servers) {
      const planned = byIdentity.get(identity(found.entry)!)!;
      const first = planned.from[0];
      const isFirst = first.client === found.from.client && first.file === found.from.file && first.scope === found.from.scope;
      const base = {
        name: planned.name,
        clientName: found.name,
        ...shape(found.entry),
        ...(found.entry.disabled ? { disabled: true } : {}),
        ...(found.entry.inputs?.length ? { inputs: found.entry.inputs.map((i) => i.id) } : {}),
      };
      if (planned.action === "unchanged") {
        // Known under another name in this client: say so, or the two names look unrelated.
        servers.push({ ...base, action: "existing", ...(planned.name !== found.name ? { reason: `Called "${found.name}" in ${report.label}; the companion already runs it as "${planned.name}".` } : {}) });
      } else if (!isFirst) {
        servers.push({ ...base, action: "duplicate", reason: `The same server as ${labels.get(first.client) ?? first.client}'s "${planned.clientName ?? planned.name}": imported once, as "${planned.name}".` });
      } else if (planned.name !== found.name) {
        servers.push({ ...base, action: "new", clash: true, reason: `Another server is already called "${found.name}": this one would be added as "${planned.name}".` });
      } else {
        servers.push({ ...base, action: "new" });
      }
    }
    for (const s of report.skipped) servers.push({ name: s.name, clientName: s.name, type: null, action: "skipped", reason: s.reason });
    return { client: report.client, label: report.label, file: report.file, scope: report.scope, ...(report.error ? { error: report.error } : {}), servers };
  });
}

/** Of what the person saw: the companion's file as it was, and every offered server. */
export function fingerprintOf(built: BuiltImport): string {
  const hash = createHash("sha256");
  hash.update(
    JSON.stringify([
      built.path,
      built.companion.text,
      built.plan.servers.map((s) => [s.name, s.action, s.entry, s.from]),
      built.plan.skipped,
      built.plan.errors,
    ]),
  );
  return hash.digest("hex");
}

export function importView(built: BuiltImport): ServerImportPlan {
  return { configPath: built.path, groups: importGroups(built), fingerprint: fingerprintOf(built) };
}

/** Only the servers named in `pick` (names as planned) are added; the rest of the plan is left out. */
export function pickPlan(plan: ImportPlan, pick: ReadonlySet<string>): ImportPlan {
  return { ...plan, servers: plan.servers.filter((s) => s.action === "add" && pick.has(s.name)) };
}

/** Writes the picked new servers into the companion's config (atomically, keeping the rest). */
export async function writeImport(built: BuiltImport, pick?: ReadonlySet<string>): Promise<string[]> {
  const plan = pick ? pickPlan(built.plan, pick) : built.plan;
  const added = plan.servers.filter((s) => s.action === "add").map((s) => s.name);
  if (added.length === 0) return added;
  // Under the config's lock: a file edited since it was read is not overwritten with the old text.
  await editConfigFile(built.path, (text) => {
    if (text !== built.companion.text) throw new FileWriteError(`${built.path} changed while the import was planned; nothing was written. Run the import again.`, built.path);
    return applyPlan(text, plan);
  });
  return added;
}
