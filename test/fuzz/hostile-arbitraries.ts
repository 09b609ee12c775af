// Arbitraries shared by the fuzz suite: schema-shaped values built from the keywords forms and
// tools use, mixed with the hostile shapes of issue 7 (deep nesting, pathological patterns, huge
// enums, long strings, odd types where objects belong).
import fc from "fast-check";

/** A JSON value nested `levels` deep (arrays or objects). */
export function nested(levels: number, object = false): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < levels; i++) value = object ? { d: value } : [value];
  return value;
}

export const deepValue = fc.tuple(fc.integer({ min: 60, max: 5_000 }), fc.boolean()).map(([levels, object]) => nested(levels, object));

export const evilPattern = fc.constantFrom("^(a+)+$", "^(a|aa)+$", "^(a*)*b$", "a[ab]{500}$", "(.*a){12}", "^(\\w+\\s?)*$", "(?=a)a", "[", "(a+)+" + "x".repeat(1200));

export const evilString = fc.oneof(
  fc.integer({ min: 1, max: 60 }).map((n) => "a".repeat(n) + "!"),
  fc.integer({ min: 1, max: 10_000 }).map((n) => "ab".repeat(n).slice(0, n)),
);

const keywordValue = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 3_000 }).map((n) => Array.from({ length: n }, (_, i) => `o${i}`)) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 30_000 }).map((n) => "t".repeat(n)) },
);

const property = fc.record(
  {
    type: fc.oneof(fc.constantFrom("string", "number", "integer", "boolean", "array", "object", "null", "nope"), keywordValue),
    title: fc.oneof(fc.string(), keywordValue),
    description: fc.string(),
    format: fc.constantFrom("email", "uri", "date", "date-time", "regex", "nope"),
    pattern: fc.oneof(evilPattern, fc.string()),
    enum: keywordValue,
    enumNames: keywordValue,
    oneOf: fc.oneof(fc.array(fc.record({ const: fc.jsonValue({ maxDepth: 2 }), title: fc.string() }), { maxLength: 5 }), keywordValue),
    anyOf: fc.oneof(fc.array(fc.record({ const: fc.jsonValue({ maxDepth: 2 }), title: fc.string() }), { maxLength: 5 }), keywordValue),
    items: fc.oneof(fc.record({ type: fc.constant("string"), enum: keywordValue, anyOf: keywordValue }, { requiredKeys: [] }), keywordValue),
    minLength: fc.oneof(fc.integer(), keywordValue),
    maximum: fc.oneof(fc.double(), keywordValue),
    minItems: fc.nat(),
    default: keywordValue,
    allOf: fc.array(fc.record({ pattern: evilPattern }), { maxLength: 2 }),
    $ref: fc.constantFrom("#", "#/properties/a", "http://example.com/s.json"),
  },
  { requiredKeys: [] },
);

/** A form-like schema: mostly objects with properties, sometimes anything at all. */
export const schemaLike = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        type: fc.oneof(fc.constant("object"), keywordValue),
        properties: fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(property, keywordValue), { maxKeys: 6 }), keywordValue),
        required: fc.oneof(fc.array(fc.string({ maxLength: 8 }), { maxLength: 6 }), keywordValue),
        allOf: fc.array(fc.record({ properties: fc.dictionary(fc.string({ maxLength: 4 }), fc.record({ pattern: evilPattern }), { maxKeys: 2 }) }), { maxLength: 2 }),
        anyOf: fc.array(fc.record({ pattern: evilPattern }), { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.boolean(), keywordValue),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.anything() },
  { weight: 1, arbitrary: deepValue },
);

/** Data a page might submit: strings (some hostile), numbers, lists, and odd values. */
export const submitted = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("a", "code", "s", "__proto__", "constructor")),
  fc.oneof(evilString, fc.jsonValue({ maxDepth: 2 }), fc.integer({ min: 0, max: 20_000 }).map((n) => "a".repeat(n) + "!"), deepValue),
  { maxKeys: 6 },
);

/** Runs `work` and returns its result with the milliseconds it took. */
export function timed<T>(work: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = work();
  return { value, ms: performance.now() - start };
}
