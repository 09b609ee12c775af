// One reduction per schema object: the bridge's bounds check, the Inbox's answer check and the
// rules' fingerprint share it, and the check's verdicts are those of a freshly parsed copy.
import { describe, expect, it } from "vitest";
import { checkFormAnswer } from "../../../src/forms/check-answer";
import { reduceFormSchema } from "../../../src/forms/flat-schema";
import { MAX_FORM_PROPERTIES } from "../../../src/shared/limits";

const schema = () => ({
  type: "object",
  properties: { name: { type: "string", minLength: 2, default: "ab" }, count: { type: "integer", maximum: 3 } },
  required: ["name"],
});

describe("reduceFormSchema per schema object", () => {
  it("reduces a schema object once and keeps its refusal", () => {
    const s = schema();
    const first = reduceFormSchema(s);
    expect(reduceFormSchema(s)).toBe(first);
    const tooMany = { type: "object", properties: Object.fromEntries(Array.from({ length: MAX_FORM_PROPERTIES + 1 }, (_, i) => [`f${i}`, { type: "string" }])) };
    const refused = reduceFormSchema(tooMany);
    expect(refused.ok).toBe(false);
    expect(reduceFormSchema(tooMany)).toBe(refused);
  });

  it("checks answers against one schema object as against fresh copies, also after the validator cache turned over", () => {
    const s = schema();
    const answers = [{ name: "abc", count: 2 }, { name: "a" }, { count: 9 }, {}, { name: "ok", count: "2" }];
    const before = answers.map((a) => checkFormAnswer(s, a));
    // More distinct forms than the compiled-validator cache holds: the shared one is evicted.
    for (let i = 0; i < 140; i++) checkFormAnswer({ type: "object", properties: { [`x${i}`]: { type: "string" } } }, {});
    answers.forEach((a, i) => {
      expect(checkFormAnswer(s, a)).toEqual(before[i]);
      expect(checkFormAnswer(schema(), a)).toEqual(before[i]);
    });
    expect(before.map((r) => r.ok)).toEqual([true, false, false, true, true]);
  });
});
