// Rules and history speak of a form the way it was shown: field titles, and an option's title
// rather than its `const` value ("Hero 1", not "hero-1").
import { describe, expect, it } from "vitest";
import { explainRule } from "../../../../src/main/rules/explain";
import { fieldsAsked } from "../../../../src/forms/fields-asked";
import { titledValue } from "../../../../src/shared/history";
import type { FormRule } from "../../../../src/shared/rules";

const schema = {
  type: "object",
  properties: {
    titledSingleSelectEnum: { type: "string", title: "Titled Single Select Enum", oneOf: [{ const: "hero-1", title: "Hero 1" }, { const: "hero-2", title: "Hero 2" }] },
    legacy: { type: "string", title: "Legacy", enum: ["r", "g"], enumNames: ["Red", "Green"] },
    untitled: { type: "string", enum: ["a", "b"] },
    multi: { type: "array", title: "Pick", items: { anyOf: [{ const: "x", title: "Ex" }, { const: "y", title: "Why" }] } },
  },
};

describe("option titles", () => {
  it("are kept with the fields asked, only where they differ from the values", () => {
    const fields = fieldsAsked(schema);
    expect(fields).toEqual([
      { key: "titledSingleSelectEnum", title: "Titled Single Select Enum", options: [{ value: "hero-1", title: "Hero 1" }, { value: "hero-2", title: "Hero 2" }] },
      { key: "legacy", title: "Legacy", options: [{ value: "r", title: "Red" }, { value: "g", title: "Green" }] },
      { key: "untitled" },
      { key: "multi", title: "Pick", options: [{ value: "x", title: "Ex" }, { value: "y", title: "Why" }] },
    ]);
    expect(titledValue(fields[0], "hero-1")).toBe("Hero 1");
    expect(titledValue(fields[3], ["x", "y"])).toBe("Ex, Why");
    expect(titledValue(fields[2], "a")).toBe("a");
  });

  it("are what a rule's explanation shows, with each field's title", () => {
    const rule: FormRule = {
      id: "r1",
      type: "form",
      server: "everything",
      tool: "trigger-elicitation-request",
      fingerprint: "f",
      fields: fieldsAsked(schema),
      action: "accept",
      data: { titledSingleSelectEnum: "hero-1", multi: ["y"], untitled: "b" },
      scope: "session",
      prompt: "p",
      createdAt: 0,
    };
    const text = explainRule(rule);
    expect(text).toContain('Titled Single Select Enum = "Hero 1"');
    expect(text).toContain('Pick = "Why"');
    expect(text).toContain('untitled = "b"');
    expect(text).not.toContain("hero-1");
  });
});
