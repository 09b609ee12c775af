// What history may keep of an answer. A form field that looks like a credential (by its key, its
// title, its description, `format: "password"` or `writeOnly`: src/forms/credential.ts) is stored as MASK, whatever the person typed; a URL
// keeps only its origin and path, because tokens ride in query strings and fragments.
import { isCredentialProperty, namesCredential } from "../../forms/credential";
import { MAX_FORM_PROPERTIES } from "../../shared/limits";
import { fieldsFromSchema } from "../../forms/fields";
import type { AskedField, FieldOptionTitle } from "./types";

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

/** A key that names a credential, by the one rule (src/forms/credential.ts). */
export function isCredentialName(name: string): boolean {
  return namesCredential(name);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function schemaProperties(schema: unknown): Record<string, unknown> {
  if (!isObject(schema) || !isObject(schema.properties)) return {};
  return schema.properties;
}

/** A field the person must not see echoed back: the one rule, from its key and its schema. */
export function isCredentialField(key: string, property: unknown): boolean {
  return isCredentialProperty(key, property);
}

/** The fields a form asked for: keys and titles, never defaults or values. */
export function fieldsAsked(schema: unknown): AskedField[] {
  const fields: AskedField[] = [];
  const titled = optionTitles(schema);
  for (const [key, property] of Object.entries(schemaProperties(schema))) {
    if (fields.length >= MAX_FORM_PROPERTIES) break;
    const title = isObject(property) && typeof property.title === "string" ? property.title.slice(0, 200) : undefined;
    const options = titled.get(key);
    fields.push({ key: key.slice(0, 200), ...(title ? { title } : {}), ...(options ? { options } : {}) });
  }
  return fields;
}

/** Kept per field, so a record of a long choice list stays small. */
const MAX_TITLED_OPTIONS = 50;

/** The titles of each choice field's options, read the way the form read them (src/forms/fields.ts). */
function optionTitles(schema: unknown): Map<string, FieldOptionTitle[]> {
  const plan = fieldsFromSchema(schema);
  const titled = new Map<string, FieldOptionTitle[]>();
  if (!plan.ok) return titled;
  for (const field of plan.fields) {
    const options = (field.options ?? []).filter((o) => o.label !== o.value).slice(0, MAX_TITLED_OPTIONS);
    if (options.length) titled.set(field.key.slice(0, 200), options.map((o) => ({ value: o.value.slice(0, 200), title: o.label.slice(0, 200) })));
  }
  return titled;
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
  if (isObject(value)) {
    const kept: Record<string, unknown> = {};
    for (const key of Object.keys(value).slice(0, MAX_KEPT_ENTRIES)) {
      kept[key] = isCredentialName(key) ? MASK : keepValue(value[key], depth + 1, budget);
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
    kept[key] = isCredentialField(key, properties[key]) ? MASK : keepValue(data[key], 1, budget);
  }
  return kept;
}
