// Property: the fingerprint names the form, not its spelling — any reordering of keys (top level,
// properties, each property, required) gives the same fingerprint; changing a field's type does not.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { schemaFingerprint } from "../../../../src/main/rules/fingerprint";

const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,11}$/);
const property = fc.oneof(
  fc.record({ type: fc.constant("string"), title: fc.string({ maxLength: 20 }), maxLength: fc.integer({ min: 1, max: 100 }) }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constantFrom("integer", "number"), minimum: fc.integer({ min: -5, max: 5 }), maximum: fc.integer({ min: 6, max: 50 }) }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("boolean"), title: fc.string({ maxLength: 20 }) }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("string"), enum: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 }) }),
);
const schema = fc.dictionary(key, property, { minKeys: 1, maxKeys: 8 }).chain((properties) =>
  fc.subarray(Object.keys(properties)).map((required) => ({ type: "object", properties, required })),
);

function reversedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reversedKeys) as T;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversedKeys(v)])) as T;
}

describe("schemaFingerprint (property)", () => {
  it("ignores the order of keys and of required; a changed type changes it", () => {
    fc.assert(
      fc.property(schema, (s) => {
        const a = schemaFingerprint(s);
        expect(a).toMatch(/^sha256:[0-9a-f]{32}$/);
        const shuffled = reversedKeys({ ...s, required: [...s.required].reverse() });
        expect(schemaFingerprint(shuffled)).toBe(a);
        const [first] = Object.keys(s.properties);
        const retyped = { ...s, properties: { ...s.properties, [first]: { ...s.properties[first], type: s.properties[first].type === "boolean" ? "string" : "boolean" } } };
        expect(schemaFingerprint(retyped)).not.toBe(a);
      }),
      { numRuns: 200 },
    );
  });
});
