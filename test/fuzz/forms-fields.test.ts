// Property tests (issue 7): schema → fields is total and bounded. Whatever a server puts in a
// form schema, the page's planner returns a plan (fields or problems) that serialises, quickly.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldsFromSchema, initialValues, looksLikeCredential } from "../../src/forms/fields";
import { schemaLike, timed } from "./hostile-arbitraries";

describe("schema → fields (fuzz)", () => {
  it("never throws, answers within bounded time, and its plan serialises", () => {
    fc.assert(
      fc.property(schemaLike, (schema) => {
        const { value: plan, ms } = timed(() => fieldsFromSchema(schema));
        expect(ms).toBeLessThan(1000);
        expect(() => JSON.stringify(plan)).not.toThrow();
        if (plan.ok) {
          expect(plan.fields.length).toBeLessThanOrEqual(100);
          for (const field of plan.fields) {
            expect(typeof field.label).toBe("string");
            expect(field.options?.length ?? 0).toBeLessThanOrEqual(1000);
            looksLikeCredential(field);
          }
          expect(() => JSON.stringify(initialValues(plan.fields))).not.toThrow();
        } else {
          expect(plan.problems.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
