// Property: jsonLengthBound never under-counts, so a size check that trusts it refuses nothing
// the exact text would let through; what it cannot size (toJSON, BigInt, class instances,
// cycles past the node bound) it says so instead of guessing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonLengthBound } from "../../src/main/base/json-size";

describe("jsonLengthBound", () => {
  it("is at least the serialised length of any JSON value", () => {
    const text = fc.oneof(fc.string({ unit: "binary", maxLength: 30 }), fc.string({ unit: "grapheme", maxLength: 30 }), fc.string({ unit: "binary-ascii", maxLength: 30 }));
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null)),
      node: fc.oneof({ depthSize: "small" }, tie("leaf"), fc.array(tie("node"), { maxLength: 5 }), fc.dictionary(text, tie("node"), { maxKeys: 5 })),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        const bound = jsonLengthBound(v, 10_000);
        expect(bound).toBeDefined();
        expect(bound!).toBeGreaterThanOrEqual(JSON.stringify(v).length);
      }),
      { numRuns: 300 },
    );
    // The escapes that grow a string most: controls and lone surrogates.
    for (const s of ["\u0000\u0001\u001f", "\ud800\udfff\ud800", '"\\\n']) expect(jsonLengthBound({ [s]: [s] }, 10)!).toBeGreaterThanOrEqual(JSON.stringify({ [s]: [s] }).length);
    expect(jsonLengthBound(-1.7976931348623157e308, 1)!).toBeGreaterThanOrEqual(JSON.stringify(-1.7976931348623157e308).length);
  });

  it("does not size what JSON.stringify would write another way or refuse", () => {
    expect(jsonLengthBound({ a: { toJSON: () => "x".repeat(100) } }, 10)).toBeUndefined();
    expect(jsonLengthBound({ a: new Date(0) }, 10)).toBeUndefined();
    expect(jsonLengthBound({ a: 1n }, 10)).toBeUndefined();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(jsonLengthBound(cycle, 1000)).toBeUndefined();
    const throwing = Object.defineProperty({}, "x", { enumerable: true, get: () => { throw new Error("no"); } });
    expect(jsonLengthBound(throwing, 10)).toBeUndefined();
  });
});
