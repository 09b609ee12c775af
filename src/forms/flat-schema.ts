// Reduces a form schema (an elicitation's `requestedSchema`, a posted `data.schema`) to the flat
// subset MCP 2025-11-25 allows for elicitation forms (flat objects with primitive properties)
// before anything compiles it: at the top only type, properties, required (and a boolean
// additionalProperties); per property only the keywords a form field uses. Compositions (allOf/anyOf/oneOf at the top, not, if/then), $ref and nested objects are
// dropped, so no schema can make a check walk or backtrack without bound. Past the limits it
// refuses with a reason instead of guessing. The walk only ever looks one level into a property
// (two for `items`), so it is bounded by the limits whatever the input's depth.
import {
  MAX_ENUM_OPTIONS,
  MAX_FORM_PROPERTIES,
  MAX_SCHEMA_STRING,
} from "../shared/limits";
import { isLinearPattern } from "./re2-engine";
import { isPlainObject } from "../shared/unknown-value";

type Schema = Record<string, unknown>;

export type Reduced = { ok: true; schema: Schema } | { ok: false; problem: string };

class Refused extends Error {}

function isPrimitive(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

function text(value: unknown, what: string): string | undefined {
  if (typeof value !== "string") return undefined;
  if (value.length > MAX_SCHEMA_STRING) throw new Refused(`${what} is longer than ${MAX_SCHEMA_STRING} characters`);
  return value;
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** A list of options (enum values or {const, title} items), refused past MAX_ENUM_OPTIONS. */
function optionCount(list: unknown[], what: string): void {
  if (list.length > MAX_ENUM_OPTIONS) throw new Refused(`${what} offers ${list.length} choices; at most ${MAX_ENUM_OPTIONS} are allowed`);
}

function reduceEnum(values: unknown, what: string): unknown[] | undefined {
  if (!Array.isArray(values)) return undefined;
  optionCount(values, what);
  // Only scalar options are choices a form can offer; a list with anything else is dropped whole.
  if (!values.every(isPrimitive)) return undefined;
  for (const v of values) text(v, `an option of ${what}`);
  return values;
}

function reduceEnumNames(names: unknown, what: string): string[] | undefined {
  if (!Array.isArray(names) || names.length > MAX_ENUM_OPTIONS || !names.every((n) => typeof n === "string")) return undefined;
  for (const n of names) text(n, `a label of ${what}`);
  return names as string[];
}

/** `[{const, title}]` (titled choices), or undefined when the list is anything else. */
function reduceTitled(list: unknown, what: string): Schema[] | undefined {
  if (!Array.isArray(list)) return undefined;
  optionCount(list, what);
  const out: Schema[] = [];
  for (const item of list) {
    if (!isPlainObject(item) || !isPrimitive(item.const)) return undefined;
    const option: Schema = { const: item.const };
    text(item.const, `an option of ${what}`);
    const title = text(item.title, `a label of ${what}`);
    if (title !== undefined) option.title = title;
    out.push(option);
  }
  return out;
}

function reduceType(type: unknown): unknown {
  if (typeof type === "string") return text(type, "a type");
  if (Array.isArray(type) && type.length <= 8 && type.every((t) => typeof t === "string" && t.length < 32)) return type;
  return undefined;
}

function reduceDefault(value: unknown, what: string): unknown {
  if (isPrimitive(value)) return typeof value === "string" ? text(value, `the default of ${what}`) : value;
  if (Array.isArray(value) && value.length <= MAX_ENUM_OPTIONS && value.every((v) => typeof v === "string")) {
    for (const v of value) text(v, `the default of ${what}`);
    return value;
  }
  return undefined;
}

function reduceItems(items: unknown, what: string): Schema | undefined {
  if (!isPlainObject(items)) return undefined;
  const out: Schema = {};
  const type = reduceType(items.type);
  if (type !== undefined) out.type = type;
  const values = reduceEnum(items.enum, what);
  if (values) out.enum = values;
  const names = reduceEnumNames(items.enumNames, what);
  if (names) out.enumNames = names;
  const anyOf = reduceTitled(items.anyOf, what);
  if (anyOf) out.anyOf = anyOf;
  const oneOf = reduceTitled(items.oneOf, what);
  if (oneOf) out.oneOf = oneOf;
  return out;
}

const NUMBERS = ["minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "multipleOf"] as const;

function reduceProperty(key: string, prop: unknown): unknown {
  // `true`/`false` are schemas too (anything / nothing); anything else non-object says nothing.
  if (typeof prop === "boolean") return prop;
  if (!isPlainObject(prop)) return {};
  const what = `field "${key.length > 80 ? `${key.slice(0, 80)}…` : key}"`;
  const out: Schema = {};
  const type = reduceType(prop.type);
  if (type !== undefined) out.type = type;
  for (const keyword of ["title", "description", "format"] as const) {
    const value = text(prop[keyword], `the ${keyword} of ${what}`);
    if (value !== undefined) out[keyword] = value;
  }
  for (const keyword of NUMBERS) {
    const value = finite(prop[keyword]);
    if (value !== undefined) out[keyword] = value;
  }
  if ("default" in prop) {
    const value = reduceDefault(prop.default, what);
    if (value !== undefined) out.default = value;
  }
  if (isPrimitive(prop.const)) out.const = prop.const;
  const values = reduceEnum(prop.enum, what);
  if (values) out.enum = values;
  const names = reduceEnumNames(prop.enumNames, what);
  if (names) out.enumNames = names;
  const oneOf = reduceTitled(prop.oneOf, what);
  if (oneOf) out.oneOf = oneOf;
  const anyOf = reduceTitled(prop.anyOf, what);
  if (anyOf) out.anyOf = anyOf;
  if (prop.items !== undefined) {
    const items = reduceItems(prop.items, what);
    if (items) out.items = items;
  }
  // Kept only when the linear-time engine can run it; otherwise the field is checked without it.
  if (isLinearPattern(prop.pattern)) out.pattern = prop.pattern;
  return out;
}

// One reduction per schema object: an elicitation's schema is checked by the bridge (bounds), the
// Inbox (the answer) and the rules (fingerprint), and reducing it is most of each check's cost.
// Safe because a schema is never mutated once it arrived (parsed from the wire, then only read);
// the reduced schema is shared, so its readers must not mutate it either (none does).
const reducedBySchema = new WeakMap<object, Reduced>();

/** The flat form `schema` describes, or the reason it is refused. Never throws. */
export function reduceFormSchema(schema: unknown): Reduced {
  if (!isPlainObject(schema)) return { ok: false, problem: "the form schema is not an object" };
  const cached = reducedBySchema.get(schema);
  if (cached) return cached;
  const reduced = reduce(schema);
  reducedBySchema.set(schema, reduced);
  return reduced;
}

function reduce(schema: Schema): Reduced {
  try {
    const out: Schema = {};
    const type = reduceType(schema.type);
    if (type !== undefined) out.type = type;
    const properties = isPlainObject(schema.properties) ? schema.properties : {};
    const keys = Object.keys(properties);
    if (keys.length > MAX_FORM_PROPERTIES) {
      return { ok: false, problem: `the form has ${keys.length} fields; at most ${MAX_FORM_PROPERTIES} are allowed` };
    }
    // fromEntries defines own properties, so a field named "__proto__" stays a field.
    const props: Schema = Object.fromEntries(
      keys.map((key) => {
        text(key, "a field's name");
        return [key, reduceProperty(key, properties[key])];
      }),
    );
    out.properties = props;
    if (Array.isArray(schema.required)) {
      const required = [...new Set(schema.required.filter((k): k is string => typeof k === "string"))];
      if (required.length > MAX_FORM_PROPERTIES) {
        return { ok: false, problem: `the form requires ${required.length} fields; at most ${MAX_FORM_PROPERTIES} are allowed` };
      }
      for (const k of required) text(k, "a required field's name");
      out.required = required;
    }
    if (typeof schema.additionalProperties === "boolean") out.additionalProperties = schema.additionalProperties;
    return { ok: true, schema: out };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problem: error.message };
    return { ok: false, problem: `the form schema cannot be read: ${(error as Error).message}` };
  }
}
