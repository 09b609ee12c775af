// terminalText over arbitrary text, biased towards escape sequences and controls: nothing a
// terminal would act on survives, a second pass changes nothing, and plain text passes unchanged.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { terminalJson, terminalText } from "../../src/main/base/terminal-text";

const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const ALLOWED_WITH_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const pieces = fc.constantFrom(
  "\x1b", "\x1b[", "\x1b]", "\x1bP", "\x1b\\", "\x07", "\u009b", "\u009c", "\u009d", "\u0090", "\u009f",
  "[2J", "]52;c;ZXZpbA==", "0;pwned", ";", "\n", "\r", "\t", "\u2028", "\u202e", "\u2066", "\x7f", "\x18", "a", "é", "🚀",
);
const hostile = fc.oneof(
  fc.array(pieces, { maxLength: 40 }).map((p) => p.join("")),
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.array(fc.oneof(pieces, fc.string({ unit: "grapheme", maxLength: 4 })), { maxLength: 30 }).map((p) => p.join("")),
);
const plain = fc.string({ unit: "grapheme", maxLength: 80 }).filter((s) => !CONTROLS.test(s));
const RUNS = { numRuns: 500 };

describe("terminalText (fuzz)", () => {
  it("leaves no control character on one line, and only \\n and \\t with lines", () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(terminalText(text)).not.toMatch(CONTROLS);
        expect(terminalText(text, { lines: true })).not.toMatch(ALLOWED_WITH_LINES);
      }),
      RUNS,
    );
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(hostile, fc.boolean(), (text, lines) => {
        const once = terminalText(text, { lines });
        expect(terminalText(once, { lines })).toBe(once);
      }),
      RUNS,
    );
  });

  it("returns plain text unchanged", () => {
    fc.assert(fc.property(plain, fc.boolean(), (text, lines) => {
        expect(terminalText(text, { lines })).toBe(text);
      }), RUNS);
  });

  it("terminalJson writes no control character and parses back to the same string", () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const json = terminalJson({ text });
        expect(json).not.toMatch(CONTROLS);
        expect(JSON.parse(json)).toEqual({ text });
      }),
      RUNS,
    );
  });
});
