// Turns an elicitation `requestedSchema` into the list of fields a form shows, or explains why it
// cannot be shown. Pure TypeScript so the renderer and tests share it without a DOM.
// The kinds follow the primitive types of MCP 2025-11-25 elicitation schemas; anything outside them is reported, never guessed.
// Total and bounded on any input (a server's schema reaches the page as sent): past the limits of
// limits.ts it reports the problem, it only ever looks one or two levels into a property, and it
// never turns a nested value into text (String() of a deep array recurses until it throws).
import { MAX_ENUM_OPTIONS, MAX_FORM_PROPERTIES, MAX_SCHEMA_STRING } from "../shared/limits";
import { isCredential } from "./credential";
import { isPlainObject } from "../shared/unknown-value";

export type FieldKind =
  | "text"
  | "email"
  | "uri"
  | "date"
  | "date-time"
  | "number"
  | "integer"
  | "boolean"
  | "select"
  | "multiselect";

export interface FieldOption {
  value: string;
  label: string;
}

export interface Field {
  key: string;
  /** `title` when the schema gives one, else the key. */
  label: string;
  description?: string;
  required: boolean;
  kind: FieldKind;
  options?: FieldOption[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  /** The schema's `format` and `writeOnly`, kept for the credential rule (credential.ts). */
  format?: string;
  writeOnly?: boolean;
}

export type FormPlan =
  | { ok: true; fields: Field[] }
  | {
      ok: false;
      /** Why we cannot show it, one sentence per problem. */
      problems: string[];
      /** What the schema asked for, one line per property, for the person to read. */
      asked: string[];
    };

type Schema = Record<string, unknown>;

const TEXT_FORMATS: Record<string, FieldKind> = {
  email: "email",
  uri: "uri",
  date: "date",
  "date-time": "date-time",
};

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The text of a scalar option value; undefined for anything nested. */
function scalar(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return undefined;
}

/** A form whose options or texts are past the limits is reported, not drawn. */
class TooLarge extends Error {}

function bounded(text: string | undefined, what: string): string | undefined {
  if (text !== undefined && text.length > MAX_SCHEMA_STRING) throw new TooLarge(`${what} is longer than ${MAX_SCHEMA_STRING} characters, which a form here cannot show.`);
  return text;
}

function boundedList(list: unknown[], what: string): void {
  if (list.length > MAX_ENUM_OPTIONS) throw new TooLarge(`${what} offers ${list.length} choices; at most ${MAX_ENUM_OPTIONS} can be shown.`);
}

/** `type: ["string", "null"]` is common in generated schemas; treat it as the one real type. */
function typeOf(prop: Schema): string | undefined {
  const type = prop.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const real = type.filter((t) => t !== "null");
    return real.length === 1 && typeof real[0] === "string" ? real[0] : undefined;
  }
  return undefined;
}

/** `[{const, title}]` lists (oneOf / anyOf) as options; undefined when the list is not that shape. */
function titledOptions(list: unknown, what: string): FieldOption[] | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  boundedList(list, what);
  const options: FieldOption[] = [];
  for (const item of list) {
    if (!isPlainObject(item) || !("const" in item)) return undefined;
    const value = bounded(scalar(item.const), `An option of ${what}`);
    if (value === undefined) return undefined;
    options.push({ value, label: bounded(str(item.title), `An option of ${what}`) ?? value });
  }
  return options;
}

/** `enum` as options, labelled by legacy `enumNames` only when both lists line up one to one. */
function enumOptions(values: unknown, names: unknown, what: string): FieldOption[] | undefined {
  if (!Array.isArray(values) || values.length === 0) return undefined;
  boundedList(values, what);
  const texts = values.map((v) => bounded(scalar(v), `An option of ${what}`));
  if (texts.some((t) => t === undefined)) return undefined;
  const labels = Array.isArray(names) && names.length === values.length ? names.map((n) => scalar(n)) : undefined;
  const usable = labels && labels.every((l) => l !== undefined && l.length <= MAX_SCHEMA_STRING) ? (labels as string[]) : undefined;
  return (texts as string[]).map((value, i) => ({ value, label: usable ? usable[i] : value }));
}

function choiceOptions(prop: Schema, what: string): FieldOption[] | undefined {
  return titledOptions(prop.oneOf, what) ?? titledOptions(prop.anyOf, what) ?? enumOptions(prop.enum, prop.enumNames, what);
}

function multiOptions(items: unknown, what: string): FieldOption[] | undefined {
  if (!isPlainObject(items)) return undefined;
  // items.oneOf is read as items.anyOf: a list of titled consts is the same choice list either way.
  return titledOptions(items.anyOf, what) ?? titledOptions(items.oneOf, what) ?? enumOptions(items.enum, items.enumNames, what);
}

/** One line saying what a property asked for, in words a person can act on. */
function describeProperty(key: string, prop: unknown): string {
  const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);
  if (!isPlainObject(prop)) return `${clip(key)}: (not a field description)`;
  const label = clip(str(prop.title) ?? key);
  const types = Array.isArray(prop.type) ? prop.type.slice(0, 8).map((t) => scalar(t) ?? "?") : undefined;
  const type = typeOf(prop) ?? (types ? clip(types.join(" or ")) : "unspecified type");
  const description = str(prop.description) && clip(prop.description as string);
  let shape = type;
  if (type === "object" && isPlainObject(prop.properties)) {
    const keys = Object.keys(prop.properties);
    shape = `a group of fields (${clip(keys.slice(0, 10).join(", "))}${keys.length > 10 ? ", …" : ""})`;
  }
  else if (type === "array") shape = "a list";
  return `${label}: ${shape}${description ? ` — ${description}` : ""}`;
}

type FieldResult = { field: Field } | { problem: string };

function toField(key: string, prop: unknown, required: boolean): FieldResult {
  try {
    return planField(key, prop, required);
  } catch (error) {
    if (error instanceof TooLarge) return { problem: error.message };
    throw error;
  }
}

/** A default is kept only when it is a scalar or a list of strings: nothing nested reaches a field. */
function plainDefault(value: unknown): unknown {
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return value;
  if (Array.isArray(value) && value.length <= MAX_ENUM_OPTIONS && value.every((v) => typeof v === "string")) return value;
  return undefined;
}

function planField(key: string, prop: unknown, required: boolean): FieldResult {
  bounded(key, "A field's name");
  if (!isPlainObject(prop)) return { problem: `"${key}" is not described by a schema.` };
  const label = bounded(str(prop.title), `The title of "${key}"`) ?? key;
  const description = bounded(str(prop.description), `The description of "${label}"`);
  const base = {
    key,
    label,
    description,
    required,
    default: plainDefault(prop.default),
    ...(typeof prop.format === "string" ? { format: prop.format } : {}),
    ...(prop.writeOnly === true ? { writeOnly: true } : {}),
  };
  const type = typeOf(prop);

  const options = choiceOptions(prop, `"${label}"`);
  if (options && (type === undefined || type === "string" || type === "number" || type === "integer")) {
    return { field: { ...base, kind: "select", options } };
  }

  switch (type) {
    case "string": {
      const format = typeof prop.format === "string" ? prop.format : undefined;
      const kind = (format && TEXT_FORMATS[format]) || "text";
      return { field: { ...base, kind, minLength: num(prop.minLength), maxLength: num(prop.maxLength) } };
    }
    case "number":
    case "integer":
      return { field: { ...base, kind: type, minimum: num(prop.minimum), maximum: num(prop.maximum) } };
    case "boolean":
      return { field: { ...base, kind: "boolean" } };
    case "array": {
      const multi = multiOptions(prop.items, `"${label}"`);
      if (!multi) return { problem: `"${label}" asks for a list that is not a list of choices.` };
      return {
        field: { ...base, kind: "multiselect", options: multi, minItems: num(prop.minItems), maxItems: num(prop.maxItems) },
      };
    }
    case "object":
      return { problem: `"${label}" asks for a nested group of fields, which a form here cannot show.` };
    case undefined:
      return { problem: `"${label}" does not say what kind of value it wants.` };
    default:
      return { problem: `"${label}" asks for a value of type "${type}", which a form here cannot show.` };
  }
}

/** Plans the form for `schema`: its fields in property order, or why it cannot be shown. Never throws. */
export function fieldsFromSchema(schema: unknown): FormPlan {
  try {
    return planForm(schema);
  } catch {
    // A backstop: the checks above are meant to leave nothing that throws.
    return { ok: false, problems: ["The question's form cannot be read."], asked: [] };
  }
}

function planForm(schema: unknown): FormPlan {
  if (!isPlainObject(schema)) {
    return { ok: false, problems: ["The question does not describe a form."], asked: [] };
  }
  const type = schema.type;
  if (type !== undefined && type !== "object") {
    return {
      ok: false,
      problems: [`The question asks for a single value of type "${String(type)}" instead of a form.`],
      asked: [],
    };
  }
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const count = Object.keys(properties).length;
  if (count > MAX_FORM_PROPERTIES) {
    return { ok: false, problems: [`The form has ${count} fields; at most ${MAX_FORM_PROPERTIES} can be shown.`], asked: [] };
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === "string") : []);
  const fields: Field[] = [];
  const problems: string[] = [];
  for (const [key, prop] of Object.entries(properties)) {
    const result = toField(key, prop, required.has(key));
    if ("field" in result) fields.push(result.field);
    else problems.push(result.problem);
  }
  if (problems.length > 0) {
    return { ok: false, problems, asked: Object.entries(properties).map(([k, p]) => describeProperty(k, p)) };
  }
  return { ok: true, fields };
}

// Servers must not collect secrets through forms (the trust boundary: secrets go through a URL the
// person opens); we flag it, by the one rule in credential.ts.
/** True when a field's key, title, description or format says it asks for a credential. */
export function looksLikeCredential(field: Pick<Field, "key" | "label" | "description" | "format" | "writeOnly">): boolean {
  return isCredential({ key: field.key, title: field.label, description: field.description, format: field.format, writeOnly: field.writeOnly });
}

/** The values a fresh form starts with: each field's default, booleans unchecked otherwise. */
export function initialValues(fields: Field[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.kind === "multiselect") {
      values[field.key] = Array.isArray(field.default) ? field.default.filter((v) => typeof v === "string") : [];
    } else if (field.kind === "boolean") {
      // A checkbox always shows yes or no, so what the person reviewed is what we send.
      values[field.key] = typeof field.default === "boolean" ? field.default : false;
    } else if (field.default !== undefined && field.default !== null) {
      values[field.key] = field.kind === "select" ? String(field.default) : field.default;
    }
  }
  return values;
}
