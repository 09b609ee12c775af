// Property tests (issue 7): the answer check is total and runs in bounded time on any schema and
// any data: form checks on the reduced flat schema, tool-argument checks on the general one, both
// with `pattern` on re2js. A catastrophic pattern anywhere never stalls them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkFormAnswer, checkToolArguments } from "../../src/forms/check-answer";
import { evilPattern, evilString, schemaLike, submitted, timed } from "./hostile-arbitraries";

function wellFormed(result: ReturnType<typeof checkFormAnswer>): void {
  expect(typeof result.ok).toBe("boolean");
  expect(Array.isArray(result.errors)).toBe(true);
  expect(result.ok).toBe(result.errors.length === 0);
  expect(result.errors.every((e) => typeof e === "string")).toBe(true);
}

describe("answer check (fuzz)", () => {
  it("checkFormAnswer never throws and returns in bounded time", () => {
    fc.assert(
      fc.property(schemaLike, submitted, (schema, data) => {
        const { value, ms } = timed(() => checkFormAnswer(schema, data as Record<string, unknown>));
        expect(ms).toBeLessThan(1000);
        wellFormed(value);
      }),
      { numRuns: 200 },
    );
  });

  it("checkToolArguments never throws and returns in bounded time", () => {
    fc.assert(
      fc.property(schemaLike, submitted, (schema, data) => {
        const { value, ms } = timed(() => checkToolArguments(schema, data as Record<string, unknown>));
        expect(ms).toBeLessThan(1000);
        wellFormed(value);
      }),
      { numRuns: 200 },
    );
  });

  it("a catastrophic pattern under allOf/anyOf, on a field or nested, is checked within 200 ms once compiled", () => {
    const shape = fc.constantFrom("field", "allOf", "anyOf", "nested");
    fc.assert(
      fc.property(evilPattern, evilString, shape, (pattern, s, where) => {
        const field = { type: "string", ...(where === "field" ? { pattern } : {}) };
        const schema: Record<string, unknown> = { type: "object", properties: { s: field } };
        if (where === "allOf") schema.allOf = [{ properties: { s: { pattern } } }];
        if (where === "anyOf") schema.anyOf = [{ properties: { s: { pattern } } }, { required: ["zz"] }];
        if (where === "nested") schema.allOf = [{ anyOf: [{ allOf: [{ properties: { s: { pattern } } }] }] }];
        for (const check of [checkFormAnswer, checkToolArguments]) {
          check(schema, { s: "a" }); // compiles (cached from here on)
          const { value, ms } = timed(() => check(schema, { s }));
          expect(ms).toBeLessThan(200);
          wellFormed(value);
        }
      }),
      { numRuns: 150 },
    );
  });
});
