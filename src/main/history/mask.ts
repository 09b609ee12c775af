// What history may keep of an answer. A form field that looks like a credential (by its key, its
// title, its description, `format: "password"` or `writeOnly`: src/forms/credential.ts) is stored as MASK, whatever the person typed; a URL
// keeps only its origin and path, because tokens ride in query strings and fragments.
import { isCredential, isCredentialProperty } from "../../forms/credential";
import { isPlainObject } from "../../shared/unknown-value";

export const MASK = "••••••";

/** Longest text kept for one answered string (after masking): history is a record, not a copy. */
const MAX_KEPT_STRING = 2_000;
/** Nesting kept of an agent's free-form answer; deeper values are summarised. */
const MAX_KEPT_DEPTH = 8;
/** Keys kept per object / items per array of a free-form answer. */
const MAX_KEPT_ENTRIES = 200;
/** Values kept of one answer in all: entries × depth alone would still allow 200^8. */
const MAX_KEPT_NODES = 2_000;
const CUT = "[…]";

function schemaProperties(schema: unknown): Record<string, unknown> {
  if (!isPlainObject(schema) || !isPlainObject(schema.properties)) return {};
  return schema.properties;
}

/** `origin + pathname` of an http(s) URL; undefined for anything that is not one. */
export function reduceUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
  return `${parsed.origin}${parsed.pathname}`;
}

// Up to the next whitespace: quotes and brackets are legal in a URL (percent-encoded by parsers),
// and stopping at one would leave the query behind it in the text.
const URL_IN_TEXT = /\bhttps?:\/\/\S+/gi;

/** Text with every http(s) URL in it reduced to origin and path. */
export function reduceUrlsIn(text: string): string {
  if (!text.includes("://")) return text;
  return text.replace(URL_IN_TEXT, (url) => reduceUrl(url) ?? "[url]");
}

function keepString(value: string): string {
  const reduced = reduceUrlsIn(value);
  return reduced.length > MAX_KEPT_STRING ? `${reduced.slice(0, MAX_KEPT_STRING)}…` : reduced;
}

/** An agent's free-form value: credential-named keys masked at any depth, URLs reduced. */
function keepValue(value: unknown, depth: number, budget: { left: number }): unknown {
  if (--budget.left < 0) return CUT;
  if (typeof value === "string") return keepString(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return value;
  if (depth >= MAX_KEPT_DEPTH) return CUT;
  if (Array.isArray(value)) return value.slice(0, MAX_KEPT_ENTRIES).map((item) => keepValue(item, depth + 1, budget));
  if (isPlainObject(value)) {
    const kept: Record<string, unknown> = {};
    for (const key of Object.keys(value).slice(0, MAX_KEPT_ENTRIES)) {
      kept[key] = isCredential({ key }) ? MASK : keepValue(value[key], depth + 1, budget);
    }
    return kept;
  }
  return undefined;
}

/**
 * The answer data as history keeps it. `schema` is the form's schema when there is one: its
 * properties decide which fields are credentials (key, title, format, writeOnly).
 */
export function maskAnswer(data: Record<string, unknown>, schema?: unknown): Record<string, unknown> {
  const properties = schemaProperties(schema);
  const kept: Record<string, unknown> = {};
  const budget = { left: MAX_KEPT_NODES };
  for (const key of Object.keys(data).slice(0, MAX_KEPT_ENTRIES)) {
    kept[key] = isCredentialProperty(key, properties[key]) ? MASK : keepValue(data[key], 1, budget);
  }
  return kept;
}
