// Minimal edits to a TOML file (Codex's config.toml): append one `[a.b]` table as text at the end,
// or take one out, and keep every other byte. smol-toml only reads: re-serialising would drop the
// comments and reorder the file. Each edit is checked by parsing the result, which must be the old
// document with exactly that table added or removed.
import { parse } from "smol-toml";
import { isDeepStrictEqual } from "node:util";
import { EditError } from "./json-edit";
import { isPlainObject } from "../../shared/unknown-value";

export type TomlValue = string | number | boolean | string[] | { [key: string]: TomlValue };

const BARE = /^[A-Za-z0-9_-]+$/;
const tomlKey = (key: string) => (BARE.test(key) ? key : JSON.stringify(key));
// TOML basic strings take JSON's escapes (\" \\ \n \t \uXXXX).
const tomlString = (value: string) => JSON.stringify(value);

function tomlInline(value: TomlValue): string {
  if (typeof value === "string") return tomlString(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlString).join(", ")}]`;
  return `{ ${Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${tomlInline(v)}`).join(", ")} }`;
}

/** `[a.b]` followed by its keys, one a line; nested tables are written inline. */
function tableText(path: string[], values: Record<string, TomlValue>, eol: string): string {
  const lines = [`[${path.map(tomlKey).join(".")}]`, ...Object.entries(values).map(([k, v]) => `${tomlKey(k)} = ${tomlInline(v)}`)];
  return lines.join(eol) + eol;
}

/** The document as plain JSON values (smol-toml's tables have no prototype; dates become strings). */
export function parseToml(text: string): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(parse(text))) as Record<string, unknown>;
  } catch (error) {
    const { line, column } = error as { line?: number; column?: number };
    throw new EditError(`not valid TOML${line ? ` (line ${line}, column ${column})` : ""}: ${(error as Error).message.split("\n")[0]}`);
  }
}


/** The document with `path` set to `value` (or removed, for undefined): what an edit must produce. */
function expected(doc: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(doc);
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(at[key])) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  if (value === undefined) delete at[path[path.length - 1]];
  else at[path[path.length - 1]] = value;
  return copy;
}

export function tomlValueAt(doc: Record<string, unknown>, path: string[]): unknown {
  let at: unknown = doc;
  for (const key of path) at = isPlainObject(at) ? at[key] : undefined;
  return at;
}

/** Appends the table at the end of the file. The caller has removed any older one. */
export function appendTable(text: string, path: string[], values: Record<string, TomlValue>): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const doc = parseToml(text);
  let prefix = text;
  if (prefix.length > 0 && !prefix.endsWith("\n")) prefix += eol;
  if (prefix.trim().length > 0) prefix += eol;
  const next = prefix + tableText(path, values, eol);
  check(next, expected(doc, path, values), `[${path.join(".")}]`);
  return next;
}

// A header line `[a.b]` or `[a.b.c]` (spaces and quoted keys allowed), not `[[array]]`.
function headerPath(line: string): string[] | undefined {
  const m = /^[ \t]*\[(?!\[)(.*)\][ \t]*(#.*)?$/.exec(line);
  if (!m) return undefined;
  const keys: string[] = [];
  const re = /[ \t]*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))[ \t]*(\.|$)/y;
  let match: RegExpExecArray | null;
  let pos = 0;
  while (pos < m[1].length && (match = re.exec(m[1]))) {
    keys.push(match[1] !== undefined ? (JSON.parse(`"${match[1]}"`) as string) : (match[2] ?? match[3]));
    pos = re.lastIndex;
    if (match[4] === "") break;
  }
  return pos === m[1].length ? keys : undefined;
}

const isHeader = (line: string) => /^[ \t]*\[/.test(line);

/**
 * Ways of taking out the table at `path` and its sub-tables (`[path.x]`), written as header
 * sections; each candidate parses to the document without it. Empty when there is no such section.
 */
export function removeTableCandidates(text: string, path: string[]): string[] {
  const doc = parseToml(text);
  if (tomlValueAt(doc, path) === undefined) return [];
  const lines = text.split(/(?<=\n)/);
  let first = -1;
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const keys = isHeader(lines[i]) ? headerPath(lines[i].replace(/\r?\n$/, "")) : undefined;
    const ours = keys !== undefined && keys.length >= path.length && path.every((k, j) => keys[j] === k);
    if (ours && first === -1) first = i;
    else if (first !== -1 && last === -1 && isHeader(lines[i]) && !ours) last = i;
  }
  if (first === -1) throw new EditError(`[${path.join(".")}] is not written as its own table; edit it by hand`);
  if (last === -1) last = lines.length;
  const before = lines.slice(0, first).join("");
  const after = lines.slice(last).join("");
  // Taking out the only table of `[mcp_servers]` takes `mcp_servers` with it (nothing else defined it).
  const want = [expected(doc, path, undefined)];
  for (let depth = path.length - 1; depth >= 1; depth--) {
    const parent = tomlValueAt(want[want.length - 1], path.slice(0, depth));
    if (!isPlainObject(parent) || Object.keys(parent).length > 0) break;
    want.push(expected(want[want.length - 1], path.slice(0, depth), undefined));
  }
  // The blank line we put before it first; then also the line end we would have added to a file
  // that had none (the same text either way: a file ending in a line end is the likelier).
  const candidates: string[] = [];
  if (/\r?\n\r?\n$/.test(before)) candidates.push(before.replace(/\r?\n$/, "") + after);
  if (after === "" && /\r?\n\r?\n$/.test(before)) candidates.push(before.replace(/\r?\n\r?\n$/, ""));
  candidates.push(before + after);
  const valid = candidates.filter((c) => {
    try {
      const got = parseToml(c);
      return want.some((w) => isDeepStrictEqual(got, w));
    } catch {
      return false;
    }
  });
  if (valid.length === 0) throw new EditError(`[${path.join(".")}] could not be taken out cleanly; edit it by hand`);
  return valid;
}

function check(text: string, want: Record<string, unknown>, what: string): void {
  if (!isDeepStrictEqual(parseToml(text), want)) throw new EditError(`adding ${what} would change other settings (is it defined inline elsewhere?); edit it by hand`);
}
