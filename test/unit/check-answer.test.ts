import { describe, expect, it } from "vitest";
import { checkFormAnswer, prepareFormData } from "../../src/forms/check-answer";

const schema = () => ({
  type: "object",
  properties: {
    name: { type: "string", minLength: 2 },
    email: { type: "string", format: "email" },
    site: { type: "string", format: "uri" },
    born: { type: "string", format: "date" },
    at: { type: "string", format: "date-time" },
    n: { type: "integer", minimum: 1, maximum: 10, default: 5 },
    x: { type: "number" },
    ok: { type: "boolean", default: false },
    pick: { type: "string", oneOf: [{ const: "a", title: "A" }, { const: "b", title: "B" }] },
    legacy: { type: "string", enum: ["p", "q"], enumNames: ["P", "Q"] },
    many: { type: "array", items: { anyOf: [{ const: "r" }, { const: "s" }] }, minItems: 1, maxItems: 1 },
    code: { type: "string", pattern: "^[A-Z]+$" },
  },
  required: ["name"],
});

describe("checkFormAnswer", () => {
  it("accepts a full valid answer and fills defaults", () => {
    const result = checkFormAnswer(schema(), {
      name: "Ada",
      email: "ada@example.com",
      site: "https://ada.example",
      born: "1815-12-10",
      at: "2026-11-29T10:00:00Z",
      x: 1.5,
      pick: "b",
      legacy: "q",
      many: ["s"],
      code: "ABC",
    });
    expect(result.errors).toEqual([]);
    expect(result.data).toMatchObject({ n: 5, ok: false, pick: "b" });
  });

  it("names each field's problem", () => {
    const result = checkFormAnswer(schema(), { name: "A", email: "nope", born: "yesterday", n: 11, pick: "z", legacy: "P", many: ["r", "s"], code: "abc" });
    expect(Object.keys(result.fieldErrors).sort()).toEqual(["born", "code", "email", "legacy", "many", "n", "name", "pick"]);
    expect(result.ok).toBe(false);
  });

  it("reports a missing required field as required", () => {
    expect(checkFormAnswer(schema(), { name: "" }).fieldErrors).toEqual({ name: ["is required"] });
  });

  it("never sends null and coerces numeric strings", () => {
    expect(prepareFormData(schema(), { name: "Ada", x: null, n: "7" })).toEqual({ name: "Ada", n: 7, ok: false });
  });

  it("refuses values MCP cannot carry", () => {
    const result = checkFormAnswer({ type: "object", properties: {} }, { obj: { nested: true } });
    expect(result.ok).toBe(false);
  });

  it("tolerates $schema and $id at the top", () => {
    const s = { $schema: "https://json-schema.org/draft/2020-12/schema", $id: "x", ...schema() };
    expect(checkFormAnswer(s, { name: "Ada" }).ok).toBe(true);
    expect(checkFormAnswer({ ...s }, { name: "A" }).fieldErrors.name).toHaveLength(1);
  });

  it("a schema ajv cannot compile is a clear error, not a throw", () => {
    const result = checkFormAnswer({ type: "object", properties: { a: { type: "no-such-type" } } }, { a: 1 });
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatch(/cannot be checked/);
  });

  it("keeps validating correctly past the compiled-schema cache's bound", () => {
    for (let i = 0; i < 300; i++) {
      const s = { type: "object", properties: { [`f${i}`]: { type: "string", minLength: 1 } }, required: [`f${i}`] };
      expect(checkFormAnswer(s, { [`f${i}`]: "x" }).ok).toBe(true);
      expect(checkFormAnswer(JSON.parse(JSON.stringify(s)), {}).ok).toBe(false);
    }
  });
});
