// Prepares and checks the data a person submits for a form-mode question. Only main runs it: the
// Inbox before an answer leaves, and the forms:check / tools:check handlers for the page's inline
// errors, so both agree. ajv compiles with `new Function`, which the page's CSP forbids.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FormCheck } from "../shared/contract";
import { MAX_SCHEMA_STRING, MAX_TOOL_SCHEMA_BYTES } from "../shared/limits";
import { reduceFormSchema } from "./flat-schema";
import { prepareFormData, type FormValue } from "./prepare-form-data";
import { re2RegExp } from "./re2-engine";
import { toolSchemaProblem } from "./schema-size";

export { prepareFormData, type FormValue };

// ajv-formats ships CommonJS; under ESM interop its default export may sit one level down.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

export interface CheckResult {
  ok: boolean;
  /** The data to send: defaults applied, cleared optional fields dropped, numbers coerced. */
  data: Record<string, FormValue>;
  /** One message per problem, prefixed with the field's key when it has one. */
  errors: string[];
  /** The same problems keyed by field ("" for the form as a whole). */
  fieldErrors: Record<string, string[]>;
}

/** A check as the page sees it (forms:check, tools:check): what it may show, not the prepared data (main prepares on answer). */
export function pageCheck({ ok, errors, fieldErrors }: CheckResult): FormCheck {
  return { ok, errors, fieldErrors };
}

type Schema = Record<string, unknown>;

// strict: false because servers send `enumNames` and other non-standard keywords. `pattern` runs
// on re2js (linear time); long enums and required lists compile to a loop, not to one comparison
// per option in generated code (100k options would otherwise mean 100k lines to compile).
const ajv = new Ajv({
  strict: false,
  allErrors: true,
  validateFormats: true,
  loopEnum: 64,
  loopRequired: 64,
  code: { regExp: re2RegExp },
  // A server's unknown `format` is ignored; ajv would otherwise print a warning per compile.
  logger: false,
});
addFormats(ajv);
// Every elicitation arrives as a freshly parsed object, so validators are cached by the schema's
// text: compiling costs about a millisecond, a cached check a few microseconds. The cache is
// bounded so a long-running app does not keep every schema it ever saw.
const MAX_COMPILED = 128;
const compiled = new Map<string, ValidateFunction>();
// A tool's schema object lives as long as its tool: found by identity, no re-serialising per check.
const byObject = new WeakMap<object, { key: string; validate: ValidateFunction }>();

function validatorFor(schema: Schema, key = JSON.stringify(schema)): ValidateFunction {
  let validate = compiled.get(key);
  if (validate) {
    // Refresh its place so the least recently used one is evicted first.
    compiled.delete(key);
  } else {
    // `$schema` names a meta-schema ajv may not have loaded (zod emits draft 2020-12); `$id` would
    // clash across servers. Neither changes what a flat form accepts, so both are left out.
    const { $schema: _meta, $id: _id, ...rest } = schema;
    validate = ajv.compile(rest);
    if (compiled.size >= MAX_COMPILED) {
      const [oldestKey, oldest] = compiled.entries().next().value as [string, ValidateFunction];
      compiled.delete(oldestKey);
      ajv.removeSchema(oldest.schema as Schema);
    }
  }
  compiled.set(key, validate);
  return validate;
}

function describe(error: ErrorObject): { field: string; message: string } {
  const path = error.instancePath.replace(/^\//, "").split("/")[0] ?? "";
  if (error.keyword === "required") {
    const missing = String((error.params as { missingProperty?: string }).missingProperty ?? "");
    return { field: missing, message: "is required" };
  }
  if (error.keyword === "format") {
    return { field: path, message: `must be a valid ${String((error.params as { format?: string }).format)}` };
  }
  if (error.keyword === "enum" || error.keyword === "const" || error.keyword === "oneOf" || error.keyword === "anyOf") {
    return { field: path, message: "must be one of the offered choices" };
  }
  return { field: path, message: error.message ?? "is invalid" };
}

function isFormValue(value: unknown): value is FormValue {
  if (typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

function refused(message: string): CheckResult {
  return { ok: false, data: {}, errors: [message], fieldErrors: { "": [message] } };
}

/**
 * Prepares `submitted` against a form `schema` and validates the result. The schema is first
 * reduced to the flat form subset (flat-schema.ts), so the check is bounded whatever it says.
 * Never throws for bad data or a bad schema.
 */
export function checkFormAnswer(schema: unknown, submitted: Record<string, unknown> | undefined): CheckResult {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return refused("the question carries no form schema");
  const reduced = reduceFormSchema(schema);
  if (!reduced.ok) return refused(`the form schema cannot be checked: ${reduced.problem}`);
  return check(reduced.schema, submitted, () => formValidator(reduced.schema), true);
}

/**
 * A reduced schema is cached per question schema (flat-schema.ts), so its validator is found by
 * identity too: no re-serialising it for the cache key on every check. The LRU stays the one
 * bound; an entry it evicted is compiled again (or found by text) as before.
 */
function formValidator(reduced: Schema): ValidateFunction {
  const cached = byObject.get(reduced);
  if (cached && compiled.has(cached.key)) return validatorFor(reduced, cached.key);
  const key = JSON.stringify(reduced);
  const validate = validatorFor(reduced, key);
  byObject.set(reduced, { key, validate });
  return validate;
}

/**
 * The same check for a tool's arguments. A tool's `inputSchema` is general JSON Schema, so it is
 * not reduced; it is bounded in size and depth instead, its patterns run on re2js, and its
 * validator is compiled once per schema object.
 */
export function checkToolArguments(schema: unknown, submitted: Record<string, unknown> | undefined): CheckResult {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return refused("the tool carries no input schema");
  const cached = byObject.get(schema);
  const validator = (): ValidateFunction => {
    if (cached && compiled.has(cached.key)) return validatorFor(schema as Schema, cached.key);
    const problem = toolSchemaProblem(schema);
    if (problem) throw new Error(problem);
    const key = JSON.stringify(schema);
    if (Buffer.byteLength(key) > MAX_TOOL_SCHEMA_BYTES) throw new Error(`it is larger than ${MAX_TOOL_SCHEMA_BYTES} bytes`);
    const validate = validatorFor(schema as Schema, key);
    byObject.set(schema, { key, validate });
    return validate;
  };
  return check(schema as Schema, submitted, validator, false);
}

function check(schema: Schema, submitted: Record<string, unknown> | undefined, validator: () => ValidateFunction, form: boolean): CheckResult {
  let data: Record<string, unknown>;
  let validate: ValidateFunction;
  try {
    data = prepareFormData(schema, submitted);
    validate = validator();
  } catch (error) {
    return refused(`the ${form ? "form" : "tool's input"} schema cannot be checked: ${(error as Error).message}`);
  }
  // A Map, because field names are the server's: "toString" or "__proto__" must stay plain keys.
  const fieldErrors = new Map<string, string[]>();
  const add = (field: string, message: string) => {
    const list = fieldErrors.get(field);
    if (list) list.push(message);
    else fieldErrors.set(field, [message]);
  };
  if (form) {
    // A person's text past the bound is refused before any keyword (format, pattern) reads it.
    for (const [key, value] of Object.entries(data)) {
      const long = typeof value === "string" ? value.length > MAX_SCHEMA_STRING : Array.isArray(value) && value.some((v) => typeof v === "string" && v.length > MAX_SCHEMA_STRING);
      if (long) add(key, `is longer than ${MAX_SCHEMA_STRING} characters`);
    }
    if (fieldErrors.size > 0) return withErrors(data, fieldErrors);
  }
  let valid: boolean;
  try {
    valid = validate(data) as boolean;
  } catch (error) {
    return refused(`the ${form ? "form" : "tool's input"} could not be checked: ${(error as Error).message}`);
  }
  if (!valid) {
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      const { field, message } = describe(error);
      const key = `${field}\u0000${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      add(field, message);
    }
  }
  if (form) {
    for (const [key, value] of Object.entries(data)) {
      if (!isFormValue(value)) add(key, "must be text, a number, a yes/no or a list of choices");
    }
  }
  return withErrors(data, fieldErrors);
}

function withErrors(data: Record<string, unknown>, fieldErrors: Map<string, string[]>): CheckResult {
  const errors = [...fieldErrors].flatMap(([field, messages]) => messages.map((m) => (field ? `${field}: ${m}` : m)));
  // fromEntries defines own properties, so even a field named "__proto__" is reported as itself.
  return { ok: errors.length === 0, data: data as Record<string, FormValue>, errors, fieldErrors: Object.fromEntries(fieldErrors) };
}
