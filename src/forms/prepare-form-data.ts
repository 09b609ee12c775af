// Shapes the values a form holds into the data that is sent: defaults for untouched fields,
// cleared optional fields dropped, numeric strings coerced. Pure and dependency-free, so the page
// can send what main will check (main prepares again; doing it twice changes nothing).

/** Values MCP accepts in `content`. `null` is never sent. */
export type FormValue = string | number | boolean | string[];

type Schema = Record<string, unknown>;

function propertiesOf(schema: Schema): Record<string, Schema> {
  const props = schema.properties;
  return props && typeof props === "object" && !Array.isArray(props) ? (props as Record<string, Schema>) : {};
}

const own = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/** Sets an own property even for keys like "__proto__", which a plain assignment would not. */
function put(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

/** Coerces one submitted value to what its property's type expects, when that is unambiguous. */
function coerce(prop: Schema, value: unknown): unknown {
  if (!prop || typeof prop !== "object") return value;
  const type = prop.type;
  if ((type === "integer" || type === "number") && typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    return Number.isFinite(n) ? n : value;
  }
  if (type === "integer" && typeof value === "number" && Number.isFinite(value) && !Number.isInteger(value)) {
    // 3.0 arrives as 3 already; a real fraction stays and fails validation with a clear message.
    return value;
  }
  if (type === "boolean" && typeof value === "string") {
    if (value === "true") return true;
    if (value === "false") return false;
  }
  return value;
}

/**
 * Fills `default`s for fields the person did not touch (absent keys), drops cleared optional
 * fields (null, "", []), and coerces numeric strings. Required fields that were cleared are kept
 * out too, so validation reports them as missing rather than as the wrong type.
 */
export function prepareFormData(schema: Schema, submitted: Record<string, unknown> | undefined): Record<string, unknown> {
  const input = submitted ?? {};
  const out: Record<string, unknown> = {};
  const props = propertiesOf(schema);
  // Own keys only: a field named "toString" is not "present" because every object has one.
  for (const [key, prop] of Object.entries(props)) {
    if (!own(input, key)) {
      const fallback = prop && typeof prop === "object" ? prop.default : undefined;
      if (fallback !== undefined && fallback !== null) put(out, key, fallback);
      continue;
    }
    const value = input[key];
    if (isEmpty(value)) continue;
    put(out, key, coerce(prop, value));
  }
  // Keys the schema does not name pass through so validation can reject them if it must.
  for (const [key, value] of Object.entries(input)) {
    if (!own(props, key) && !isEmpty(value)) put(out, key, value);
  }
  return out;
}

