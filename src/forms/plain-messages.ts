// Validator messages in plain words, written from the field's own schema: "A whole number from 1
// to 100" instead of "must be integer" and "must be <= 100". One message per field and constraint
// family, so a value that breaks two bounds at once reads as one sentence. Pure and
// dependency-free: main may call `plainMessage` on ajv's error objects, and the page calls
// `plainFromText` on the wording main sends today (check-answer.ts `describe()`), so both agree.

type Schema = Record<string, unknown>;

/** The parts of an ajv ErrorObject this needs (ajv's own type is not imported: the page uses this). */
export interface ValidatorError {
  keyword: string;
  params?: Record<string, unknown>;
  message?: string;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const real = type.filter((t) => t !== "null");
    return real.length === 1 && typeof real[0] === "string" ? real[0] : undefined;
  }
  return undefined;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "A whole number from 1 to 100", "A number of at least 0.5", "A whole number". */
function numberRule(schema: Schema): string {
  const what = typeOf(schema) === "integer" ? "A whole number" : "A number";
  const min = num(schema.minimum) ?? num(schema.exclusiveMinimum);
  const max = num(schema.maximum) ?? num(schema.exclusiveMaximum);
  const above = num(schema.exclusiveMinimum) !== undefined && num(schema.minimum) === undefined;
  const below = num(schema.exclusiveMaximum) !== undefined && num(schema.maximum) === undefined;
  if (min !== undefined && max !== undefined && !above && !below) return `${what} from ${min} to ${max}`;
  const parts: string[] = [];
  if (min !== undefined) parts.push(above ? `above ${min}` : `of at least ${min}`);
  if (max !== undefined) parts.push(below ? `below ${max}` : `${parts.length ? "and at most" : "of at most"} ${max}`);
  return parts.length ? `${what} ${parts.join(" ")}` : what;
}

/** "Choose at most 3", "Choose 1 to 3", "Choose at least 1". */
function choiceRule(schema: Schema): string {
  const min = num(schema.minItems);
  const max = num(schema.maxItems);
  if (min !== undefined && max !== undefined) return min === max ? `Choose exactly ${min}` : `Choose ${min} to ${max}`;
  if (min !== undefined) return `Choose at least ${min}`;
  if (max !== undefined) return `Choose at most ${max}`;
  return "Choose from the offered choices";
}

/** "At most 20 characters", "3 to 20 characters". */
function lengthRule(schema: Schema, fallbackMax?: number): string {
  const min = num(schema.minLength);
  const max = num(schema.maxLength) ?? fallbackMax;
  if (min !== undefined && max !== undefined) return min === max ? `Exactly ${plural(min, "character", "characters")}` : `${min} to ${max} characters`;
  if (min !== undefined) return `At least ${plural(min, "character", "characters")}`;
  if (max !== undefined) return `At most ${plural(max, "character", "characters")}`;
  return "Text";
}

const FORMATS: Record<string, string> = {
  email: "An email address, like name@example.com",
  uri: "A full web address, like https://example.com",
  url: "A full web address, like https://example.com",
  date: "A date",
  "date-time": "A date and time",
  time: "A time of day",
};

function formatRule(format: string): string {
  return FORMATS[format] ?? `Not a valid ${format}`;
}

const TYPES: Record<string, string> = {
  string: "Text",
  boolean: "Yes or no",
  array: "A list of choices",
  object: "A group of fields",
};

/** The plain sentence for one validator error on a field whose schema is `schema`. */
export function plainMessage(error: ValidatorError, schema: Schema | undefined): string {
  const s = schema ?? {};
  const params = error.params ?? {};
  switch (error.keyword) {
    case "required":
      return "Required";
    case "type": {
      const type = typeOf(s) ?? String(params.type ?? "");
      if (type === "integer" || type === "number") return numberRule({ ...s, type });
      return TYPES[type] ?? capitalise(error.message ?? "Not valid");
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
    case "multipleOf":
      return numberRule(s);
    case "minItems":
    case "maxItems":
    case "uniqueItems":
      return choiceRule(s);
    case "minLength":
    case "maxLength":
      return lengthRule(s);
    case "format":
      return formatRule(String(params.format ?? s.format ?? ""));
    case "pattern":
      return "Not in the form this field expects";
    case "enum":
    case "const":
    case "oneOf":
    case "anyOf":
      return "Choose one of the offered choices";
    case "additionalProperties":
      return "Not a field of this form";
    default:
      return capitalise(error.message ?? "Not valid");
  }
}

function capitalise(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/** ajv's English wording (and check-answer.ts's own) mapped back to the keyword it came from. */
const WORDING: [RegExp, (m: RegExpMatchArray) => ValidatorError][] = [
  [/^is required$|^must have required property/, () => ({ keyword: "required" })],
  [/^must be (integer|number|string|boolean|array|object)$/, (m) => ({ keyword: "type", params: { type: m[1] } })],
  [/^must be (>=|<=) /, (m) => ({ keyword: m[1] === ">=" ? "minimum" : "maximum" })],
  [/^must be (>|<) /, (m) => ({ keyword: m[1] === ">" ? "exclusiveMinimum" : "exclusiveMaximum" })],
  [/^must be multiple of /, () => ({ keyword: "multipleOf" })],
  [/^must NOT have (more|fewer) than \d+ items$/, (m) => ({ keyword: m[1] === "more" ? "maxItems" : "minItems" })],
  [/^must NOT have duplicate items/, () => ({ keyword: "uniqueItems" })],
  [/^must NOT have (more|fewer) than \d+ characters$/, (m) => ({ keyword: m[1] === "more" ? "maxLength" : "minLength" })],
  [/^must be a valid (.+)$/, (m) => ({ keyword: "format", params: { format: m[1] } })],
  [/^must match format "(.+)"$/, (m) => ({ keyword: "format", params: { format: m[1] } })],
  [/^must match pattern /, () => ({ keyword: "pattern" })],
  [/^must be one of the offered choices$|^must be equal to one of the allowed values$|^must be equal to constant$/, () => ({ keyword: "enum" })],
  [/^must NOT have additional properties$/, () => ({ keyword: "additionalProperties" })],
];

/**
 * A message as main sends it today, in plain words for the field's schema. Messages that are
 * already plain (or unknown) come back capitalised, so calling this twice changes nothing.
 */
export function plainFromText(message: string, schema: Schema | undefined): string {
  const long = /^is longer than (\d+) characters$/.exec(message);
  if (long) return lengthRule({}, Number(long[1]));
  for (const [pattern, toError] of WORDING) {
    const m = message.match(pattern);
    if (m) return plainMessage({ ...toError(m), message }, schema);
  }
  return capitalise(message);
}

/** A field's messages in plain words, each sentence once, in the order they first came. */
export function plainMessages(messages: readonly string[], schema: Schema | undefined): string[] {
  return [...new Set(messages.map((m) => plainFromText(m, schema)))];
}
