// Property tests (issue 7): whatever params a server sends with elicitation/create, the bridge
// never throws, every Request it builds has the contract's shape, and the bounds check says
// either "refused, because …" or hands on something that serialises.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { elicitationProblem, elicitationToRequest } from "../../src/main/mcp/elicit";
import { deepValue, schemaLike, timed } from "./hostile-arbitraries";

const params = fc.oneof(
  fc.record(
    {
      mode: fc.oneof(fc.constantFrom("form", "url", "other"), fc.jsonValue({ maxDepth: 1 })),
      message: fc.oneof(fc.string(), fc.integer({ min: 0, max: 40_000 }).map((n) => "m".repeat(n)), fc.jsonValue({ maxDepth: 2 })),
      url: fc.oneof(fc.webUrl(), fc.string(), fc.integer({ min: 0, max: 10_000 }).map((n) => `https://x.test/${"p".repeat(n)}`)),
      requestedSchema: schemaLike,
      elicitationId: fc.string(),
      _meta: fc.oneof(fc.jsonValue({ maxDepth: 2 }), deepValue),
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
  deepValue,
);

const KEYS = new Set(["id", "kind", "prompt", "url", "data", "expiresAt"]);

describe("elicitation params → Request (fuzz)", () => {
  it("never throws and always yields a Request of the contract's shape", () => {
    fc.assert(
      fc.property(params, (p) => {
        const request = elicitationToRequest(p as Record<string, unknown>);
        expect(Object.keys(request).every((k) => KEYS.has(k))).toBe(true);
        expect(request.id).toMatch(/^elc-[0-9a-f-]{36}$/);
        expect(typeof request.prompt).toBe("string");
        if (request.kind === "authorization") {
          expect(typeof request.url).toBe("string");
          expect("data" in request).toBe(false);
        } else {
          expect(request.kind).toBe("input");
          expect("url" in request).toBe(false);
          expect(request.data && typeof request.data === "object").toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("the bounds check never throws, answers quickly, and what it lets through serialises", () => {
    fc.assert(
      fc.property(params, (p) => {
        const { value: problem, ms } = timed(() => elicitationProblem(p));
        expect(ms).toBeLessThan(1000);
        if (problem === undefined) {
          expect(() => JSON.stringify(elicitationToRequest(p as Record<string, unknown>))).not.toThrow();
        } else {
          expect(typeof problem).toBe("string");
        }
      }),
      { numRuns: 300 },
    );
  });
});
