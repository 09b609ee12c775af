// Plain-word messages from the schema (issue 10): the wording main sends today, mapped through the
// field's schema, and ajv's own error objects, agree and say each rule once.
import { describe, it, expect } from "vitest";
import { plainFromText, plainMessage, plainMessages } from "../../src/forms/plain-messages";
import { checkFormAnswer } from "../../src/forms/check-answer";
import { isCredentialProperty } from "../../src/forms/credential";
const isCredentialField = (key: string, title: string | undefined, s: Record<string, unknown>) => isCredentialProperty(key, { ...s, ...(title ? { title } : {}) });

const schema = {
  type: "object",
  properties: {
    n: { type: "integer", minimum: 1, maximum: 100 },
    tags: { type: "array", maxItems: 3, items: { type: "string", enum: ["a", "b", "c", "d"] } },
    email: { type: "string", format: "email" },
    code: { type: "string", minLength: 3, maxLength: 8 },
    x: { type: "number", exclusiveMinimum: 0 },
    pick: { type: "string", enum: ["red", "blue"] },
  },
  required: ["n"],
};
const props = schema.properties as Record<string, Record<string, unknown>>;

/** What the page shows per field for `data`: main's real verdict, in plain words. */
function shown(data: Record<string, unknown>): Record<string, string[]> {
  const { fieldErrors } = checkFormAnswer(schema, data);
  return Object.fromEntries(Object.entries(fieldErrors).map(([k, m]) => [k, plainMessages(m, props[k])]));
}

describe("plain messages", () => {
  it("says each of main's verdicts in plain words from the field's schema", () => {
    expect(shown({})).toEqual({ n: ["Required"] });
    expect(shown({ n: 500 })).toEqual({ n: ["A whole number from 1 to 100"] });
    expect(shown({ n: 1, tags: ["a", "b", "c", "d"] })).toEqual({ tags: ["Choose at most 3"] });
    expect(shown({ n: 1, email: "nope" })).toEqual({ email: ["An email address, like name@example.com"] });
    expect(shown({ n: 1, code: "ab" })).toEqual({ code: ["3 to 8 characters"] });
    expect(shown({ n: 1, x: 0 })).toEqual({ x: ["A number above 0"] });
    expect(shown({ n: 1, pick: "green" })).toEqual({ pick: ["Choose one of the offered choices"] });
  });

  it("says a value that breaks two rules of one field once", () => {
    // 0.5 is neither whole nor at least 1: ajv reports both, the person reads one sentence.
    const raw = checkFormAnswer(schema, { n: 0.5 }).fieldErrors.n!;
    expect(raw.length).toBeGreaterThan(1);
    expect(plainMessages(raw, props.n)).toEqual(["A whole number from 1 to 100"]);
  });

  it("agrees with ajv's error objects, and plain text passes through unchanged", () => {
    expect(plainMessage({ keyword: "maxItems", params: { limit: 3 } }, props.tags)).toBe("Choose at most 3");
    expect(plainMessage({ keyword: "type", params: { type: "integer" } }, props.n)).toBe("A whole number from 1 to 100");
    expect(plainMessage({ keyword: "required" }, undefined)).toBe("Required");
    expect(plainFromText("Choose at most 3", props.tags)).toBe("Choose at most 3");
    expect(plainFromText("is longer than 4096 characters", {})).toBe("At most 4096 characters");
    expect(plainFromText("something new", {})).toBe("Something new");
  });
});

describe("credential-looking fields", () => {
  it.each([
    ["password", undefined, {}],
    ["apiKey", undefined, {}],
    ["API_KEY", undefined, {}],
    ["x", "Access token", {}],
    ["pin", undefined, {}],
    ["otpCode", undefined, {}],
    ["value", "Value", { format: "password" }],
  ])("masks %s (%s)", (key, title, s) => expect(isCredentialField(key, title, s)).toBe(true));

  it.each([["spinner"], ["shipping"], ["name"], ["description"], ["opinion"]])("leaves %s alone", (key) =>
    expect(isCredentialField(key, undefined, {})).toBe(false),
  );
});
