// The file that keeps "until removed" rules: JSON, written whole through the one safe writer
// (base/safe-write.ts: under its lock, synced, renamed, mode 0600), so a reader (the app, the CLI)
// sees the old rules or the new, never half of them. Whatever is read back is checked again: the
// file is the person's to edit, and a rule that fails a check (a credential value, an unknown
// shape) is left out with a reason. A rule answers forms without asking, so a file (or folder)
// other users can change is not read at all (base/file-trust.ts).
import { readFileSync, renameSync, statSync } from "node:fs";
import { trustProblem } from "../base/file-trust";
import { writeFileSafeSync } from "../base/safe-write";
import type { FormRule } from "../../shared/rules";
import { MAX_FORM_PROPERTIES } from "../../shared/limits";
import { isCredential } from "../../forms/credential";
import { isPlainObject } from "../../shared/unknown-value";

/** A person's rules fit in far less; past it the file is not a rules file. */
const MAX_RULES_FILE_BYTES = 1024 * 1024;
/** Rules kept at once: each is a form the person chose by hand. */
export const MAX_RULES = 500;
const FILE_VERSION = 1;

export interface ReadRules {
  rules: FormRule[];
  /** Rules left out, each with why. */
  skipped: { id?: string; reason: string }[];
  /** The file as a whole could not be read (then `rules` is empty). */
  problem?: string;
  /** Size and mtime when read, to notice another writer (the CLI). */
  stamp?: string;
}

function shortString(value: unknown, max: number): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= max;
}

function isFormValue(value: unknown): boolean {
  if (typeof value === "string") return value.length <= 100_000;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value === "boolean") return true;
  return Array.isArray(value) && value.length <= 1000 && value.every((v) => typeof v === "string" && v.length <= 10_000);
}

/** The rule, or why it cannot be kept. */
function checkStoredRule(value: unknown): { ok: true; rule: FormRule } | { ok: false; reason: string } {
  if (!isPlainObject(value)) return { ok: false, reason: "not an object" };
  const v = value;
  if (!shortString(v.id, 100)) return { ok: false, reason: "no id" };
  if (v.type !== "form") return { ok: false, reason: `type "${String(v.type)}" is not kept in the file (only form rules last)` };
  if (v.scope !== "always") return { ok: false, reason: "only rules kept until removed belong in the file" };
  if (!shortString(v.server, 200)) return { ok: false, reason: "no server" };
  if (v.tool !== undefined && !shortString(v.tool, 200)) return { ok: false, reason: "a tool that is not a name" };
  if (typeof v.fingerprint !== "string" || !/^sha256:[0-9a-f]{32}$/.test(v.fingerprint)) return { ok: false, reason: "no schema fingerprint" };
  if (v.action !== "accept" && v.action !== "decline") return { ok: false, reason: "an action other than accept or decline" };
  if (!Array.isArray(v.fields) || v.fields.length > MAX_FORM_PROPERTIES) return { ok: false, reason: "no field list" };
  const fields: FormRule["fields"] = [];
  for (const f of v.fields) {
    if (!isPlainObject(f) || !shortString(f.key, 200) || (f.title !== undefined && !shortString(f.title, 200))) return { ok: false, reason: "a field that is not {key, title}" };
    fields.push(f.title !== undefined ? { key: f.key, title: f.title as string } : { key: f.key });
  }
  if (typeof v.createdAt !== "number" || !Number.isFinite(v.createdAt)) return { ok: false, reason: "no creation time" };
  const rule: FormRule = {
    id: v.id,
    type: "form",
    server: v.server,
    fingerprint: v.fingerprint,
    fields,
    action: v.action,
    scope: "always",
    prompt: typeof v.prompt === "string" ? v.prompt.slice(0, 300) : "",
    createdAt: v.createdAt,
  };
  if (v.tool !== undefined) rule.tool = v.tool as string;
  if (v.action === "accept") {
    if (v.data !== undefined && !isPlainObject(v.data)) return { ok: false, reason: "values that are not an object" };
    const data = (v.data ?? {}) as Record<string, unknown>;
    if (Object.keys(data).length > MAX_FORM_PROPERTIES) return { ok: false, reason: "too many values" };
    for (const [key, item] of Object.entries(data)) {
      if (!isFormValue(item)) return { ok: false, reason: `value "${key}" is not a form value` };
      const title = fields.find((f) => f.key === key)?.title;
      if (isCredential({ key, title })) return { ok: false, reason: `value "${key}" looks like a credential, which a rule never keeps` };
    }
    rule.data = { ...data };
  } else if (v.data !== undefined) {
    return { ok: false, reason: "a decline with values" };
  }
  return { ok: true, rule };
}

function stampOf(file: string): string | undefined {
  try {
    const s = statSync(file);
    return `${s.size}:${s.mtimeMs}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/** The file's current stamp (size, mtime, inode), or undefined when it does not exist. */
export function rulesFileStamp(file: string): string | undefined {
  return stampOf(file);
}

export function readRulesFile(file: string): ReadRules {
  const stamp = stampOf(file);
  if (stamp === undefined) return { rules: [], skipped: [] };
  let text: string;
  try {
    const untrusted = trustProblem(file);
    if (untrusted) return { rules: [], skipped: [], problem: untrusted, stamp };
    if (statSync(file).size > MAX_RULES_FILE_BYTES) return { rules: [], skipped: [], problem: `it is larger than ${MAX_RULES_FILE_BYTES} bytes`, stamp };
    text = readFileSync(file, "utf8");
  } catch (error) {
    return { rules: [], skipped: [], problem: (error as Error).message, stamp };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { rules: [], skipped: [], problem: `it is not JSON (${(error as Error).message})`, stamp };
  }
  if (!isPlainObject(parsed) || !Array.isArray(parsed.rules)) return { rules: [], skipped: [], problem: "it has no rules list", stamp };
  const rules: FormRule[] = [];
  const skipped: ReadRules["skipped"] = [];
  const ids = new Set<string>();
  for (const item of parsed.rules.slice(0, MAX_RULES)) {
    const checked = checkStoredRule(item);
    if (!checked.ok) {
      skipped.push({ ...(isPlainObject(item) && typeof item.id === "string" ? { id: item.id.slice(0, 100) } : {}), reason: checked.reason });
    } else if (ids.has(checked.rule.id)) {
      skipped.push({ id: checked.rule.id, reason: "a second rule with the same id" });
    } else {
      ids.add(checked.rule.id);
      rules.push(checked.rule);
    }
  }
  if (parsed.rules.length > MAX_RULES) skipped.push({ reason: `${parsed.rules.length - MAX_RULES} rule(s) past the first ${MAX_RULES}` });
  return { rules, skipped, stamp };
}

/** Writes the rules whole, atomically, readable by the person only. Returns the new stamp. */
export function writeRulesFile(file: string, rules: readonly FormRule[]): string | undefined {
  writeFileSafeSync(file, `${JSON.stringify({ version: FILE_VERSION, rules }, null, 2)}\n`, { mode: 0o600, dirMode: 0o700 });
  return stampOf(file);
}

/** Moves an unreadable rules file aside (kept for the person), so the next write does not destroy it. */
export function setAsideRulesFile(file: string, now: number = Date.now()): string | undefined {
  const aside = `${file}.unreadable-${now}`;
  try {
    renameSync(file, aside);
    return aside;
  } catch {
    return undefined;
  }
}
