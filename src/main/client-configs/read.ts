// The parts every reader repeats: parse the file (strict JSON, JSONC or TOML, as its client
// does) and turn a map of entries into found and skipped servers.
import { parse as parseToml } from "smol-toml";
import { McpConfigError, parseConfigText } from "../base/config-text";
import { convert, isFound, type Draft, type FinishContext, type Raw } from "./entry";
import type { ReadResult } from "./types";
import { isPlainObject } from "../../shared/unknown-value";

export type Format = "json" | "jsonc" | "toml";

/** The parsed document, or the error a person can act on (with line and column). */
function parseDocument(text: string, file: string, format: Format): { value: unknown } | { error: string } {
  try {
    if (format === "toml") return { value: parseToml(text) };
    return { value: parseConfigText(text, file, { jsonc: format === "jsonc" }) };
  } catch (error) {
    if (error instanceof McpConfigError) return { error: error.message };
    // smol-toml's TomlError carries the line and column; its message's first line says what.
    const { line, column } = error as { line?: number; column?: number };
    const where = line ? ` (line ${line}, column ${column})` : "";
    return { error: `${file} is not valid TOML${where}: ${(error as Error).message.split("\n")[0].replace(/^Invalid TOML document: /, "")}` };
  }
}

/** Converts each entry of a client's server map. */
export function readMap(map: Raw, draft: (raw: Raw) => Draft, ctx: FinishContext, into: ReadResult = { servers: [], skipped: [] }): ReadResult {
  for (const [name, raw] of Object.entries(map)) {
    const result = convert(name, raw, draft, ctx);
    if (isFound(result)) into.servers.push(result);
    else into.skipped.push(result);
  }
  return into;
}

/** The object at `key`, or an error naming it when it is there but not an object. */
export function section(doc: Raw, key: string, file: string): Raw | undefined | { error: string } {
  const value = doc[key];
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) return { error: `${file}: "${key}" is not an object of servers` };
  return value;
}

export const empty = (): ReadResult => ({ servers: [], skipped: [] });

/** The document as an object, or the reason it cannot be read. */
export function documentObject(text: string, file: string, format: Format): Raw | { error: string } {
  if (text.trim() === "") return {};
  const parsed = parseDocument(text, file, format);
  if ("error" in parsed) return parsed;
  if (!isPlainObject(parsed.value)) return { error: `${file} is not an object at the top level` };
  return parsed.value;
}

export const isError = (v: unknown): v is { error: string } => isPlainObject(v) && typeof v.error === "string" && Object.keys(v).length === 1;
