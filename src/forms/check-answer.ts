// Prepares and checks the data a person submits for a form-mode question. Only main runs it: the
// Inbox before an answer leaves, and the forms:check / tools:check handlers for the page's inline
// errors, so both agree. ajv compiles with `new Function`, which the page's CSP forbids.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { prepareFormData, type FormValue } from "./prepare-form-data";

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

type Schema = Record<string, unknown>;

// strict: false because servers send `enumNames` and other non-standard keywords.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
// Every elicitation arrives as a freshly parsed object, so validators are cached by the schema's
// text: compiling costs about a millisecond, a cached check a few microseconds. The cache is
// bounded so a long-running app does not keep every schema it ever saw.
const MAX_COMPILED = 128;
const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: Schema): ValidateFunction {
  const key = JSON.stringify(schema);
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

/** Prepares `submitted` against `schema` and validates the result. Never throws for bad data. */
export function checkFormAnswer(schema: unknown, submitted: Record<string, unknown> | undefined): CheckResult {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) {
    return { ok: false, data: {}, errors: ["the question carries no form schema"], fieldErrors: { "": ["no form schema"] } };
  }
  const data = prepareFormData(schema as Schema, submitted);
  const fieldErrors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (fieldErrors[field] ??= []).push(message);

  let validate: ValidateFunction;
  try {
    validate = validatorFor(schema as Schema);
  } catch (error) {
    const message = `the form schema cannot be checked: ${(error as Error).message}`;
    return { ok: false, data: {}, errors: [message], fieldErrors: { "": [message] } };
  }
  if (!validate(data)) {
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      const { field, message } = describe(error);
      const key = `${field}\u0000${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      add(field, message);
    }
  }
  for (const [key, value] of Object.entries(data)) {
    if (!isFormValue(value)) add(key, "must be text, a number, a yes/no or a list of choices");
  }
  const errors = Object.entries(fieldErrors).flatMap(([field, messages]) =>
    messages.map((m) => (field ? `${field}: ${m}` : m)),
  );
  return { ok: errors.length === 0, data: data as Record<string, FormValue>, errors, fieldErrors };
}
