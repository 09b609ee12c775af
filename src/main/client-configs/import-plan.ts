// Import as the CLI and the app both do it: read the companion's own config, read what other
// clients hold (every client, or the one `from` names), plan (./plan.ts), and write only the
// picked new servers. The app shows the plan per client and file; the CLI prints it.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { ImportCandidate, ImportGroup, ServerImportPlan } from "../../shared/server-import";
import { parseConfigText } from "../base/config-text";
import { FileWriteError } from "../base/fs-errors";
import { editConfigFile } from "../mcp/config/edit";
import { discover, readFrom, type FileReport } from "./index";
import { applyPlan, identity, planImport, type ImportPlan, type PlannedServer } from "./plan";
import { moveLiteralSecrets } from "./literal-secrets";
import { redactArgs, redactUrl } from "../secrets/redact-view";
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
function importGroups(built: BuiltImport): ImportGroup[] {
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
        ...(found.entry.cwd ? { cwd: found.entry.cwd } : {}),
        ...(planned.untrusted && isFirst && planned.action === "add" ? { untrusted: planned.untrusted } : {}),
        ...(planned.literals && isFirst && planned.action === "add" ? { literalSecrets: planned.literals.map((l) => ({ ...l })) } : {}),
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
      built.plan.servers.map((s) => [s.name, s.action, s.entry, s.from, s.untrusted ?? null]),
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
function pickPlan(plan: ImportPlan, pick: ReadonlySet<string>): ImportPlan {
  return { ...plan, servers: plan.servers.filter((s) => s.action === "add" && pick.has(s.name)) };
}

/** What the CLI imports by default: every new server its client runs, and the untrusted ones named. */
export function defaultPick(plan: ImportPlan, includeUntrusted: ReadonlySet<string> = new Set()): Set<string> {
  return new Set(plan.servers.filter((s) => s.action === "add" && (!s.untrusted || includeUntrusted.has(s.name))).map((s) => s.name));
}

/** Where moved secrets go: the keychain (a session-only store would lose them at exit). */
export interface SecretSink {
  readonly available: boolean;
  readonly detail: string;
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
}

export interface WriteOptions {
  /** Servers (names as planned) whose literal secrets stay as they are. */
  keepLiteral?: ReadonlySet<string> | "all";
  /** Needed when any picked server has literal secrets to move. */
  secrets?: SecretSink;
}

/** Thrown before anything is written or stored: the reason is a sentence for the person. */
export class ImportRefused extends Error {}

/** A name not in use, or in use with this very value (importing the same file again). */
async function freeName(secrets: SecretSink, name: string, value: string, taken: Set<string>): Promise<string> {
  for (let n = 1; n < 100; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`.slice(0, 128);
    if (taken.has(candidate)) continue;
    const current = await secrets.get(candidate);
    if (current === undefined || current === value) return candidate;
  }
  throw new ImportRefused(`no free keychain name for ${name}`);
}

/**
 * Writes the picked new servers into the companion's config (atomically, keeping the rest). Each
 * literal secret of a picked server is stored in the keychain first and written as
 * `${secret:NAME}`, unless `keepLiteral` says otherwise; without a keychain nothing is written.
 */
export async function writeImport(built: BuiltImport, pick?: ReadonlySet<string>, options: WriteOptions = {}): Promise<{ added: string[]; moved: string[] }> {
  const plan = pickPlan(built.plan, pick ?? defaultPick(built.plan));
  const keep = (name: string) => options.keepLiteral === "all" || options.keepLiteral?.has(name) === true;
  const moving = plan.servers.filter((s) => s.literals?.length && !keep(s.name));
  const moved: string[] = [];
  if (moving.length > 0) {
    const secrets = options.secrets;
    if (!secrets?.available) {
      const names = moving.flatMap((s) => s.literals!.map((l) => `${s.name}: ${l.key}`)).join(", ");
      throw new ImportRefused(`${names} ${moving.length === 1 && moving[0].literals!.length === 1 ? "is a secret" : "are secrets"} written inline, and there is no system keychain to move ${moving.length === 1 ? "it" : "them"} into (${secrets?.detail ?? "none given"}); nothing was written. Keep ${moving.length === 1 ? "it" : "them"} literal to import anyway.`);
    }
    const taken = new Set<string>();
    const servers = [];
    for (const server of plan.servers) {
      if (!moving.includes(server)) {
        servers.push(server);
        continue;
      }
      const literals = [];
      for (const literal of server.literals!) {
        const value = server.entry[literal.field]?.[literal.key] ?? "";
        const bare = literal.field === "headers" ? value.replace(/^(?:Bearer|Basic|token|Token)\s+/, "") : value;
        const name = await freeName(secrets, literal.secret, bare, taken);
        taken.add(name);
        literals.push({ ...literal, secret: name });
      }
      const { entry, store } = moveLiteralSecrets(server.entry, literals);
      // Into the keychain before the config refers to them: a reference to nothing fails the server.
      for (const [name, value] of store) {
        await secrets.set(name, value);
        moved.push(name);
      }
      servers.push({ ...server, entry });
    }
    plan.servers = servers;
  }
  const added = plan.servers.map((s) => s.name);
  if (added.length === 0) return { added, moved };
  // Under the config's lock: a file edited since it was read is not overwritten with the old text.
  await editConfigFile(built.path, (text) => {
    if (text !== built.companion.text) throw new FileWriteError(`${built.path} changed while the import was planned; nothing was written. Run the import again.`, built.path);
    return applyPlan(text, plan);
  });
  return { added, moved };
}
