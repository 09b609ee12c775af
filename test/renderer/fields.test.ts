import { describe, it, expect } from "vitest";
import { fieldsFromSchema, initialValues, looksLikeCredential, type Field } from "../../src/forms/fields";
import { everythingSchema } from "./fixtures/everything-elicitation";

function plan(schema: unknown): Field[] {
  const result = fieldsFromSchema(schema);
  if (!result.ok) throw new Error(`unrenderable: ${result.problems.join(" ")}`);
  return result.fields;
}

describe("fieldsFromSchema", () => {
  it("plans the 13 fields of server-everything's form with the right kinds", () => {
    const fields = plan(everythingSchema);
    expect(fields.map((f) => [f.key, f.kind])).toEqual([
      ["name", "text"],
      ["check", "boolean"],
      ["firstLine", "text"],
      ["email", "email"],
      ["homepage", "uri"],
      ["birthdate", "date"],
      ["integer", "integer"],
      ["number", "number"],
      ["untitledSingleSelectEnum", "select"],
      ["untitledMultipleSelectEnum", "multiselect"],
      ["titledSingleSelectEnum", "select"],
      ["titledMultipleSelectEnum", "multiselect"],
      ["legacyTitledEnum", "select"],
    ]);
    const byKey = Object.fromEntries(fields.map((f) => [f.key, f]));
    expect(byKey.name.required).toBe(true);
    expect(byKey.check.required).toBe(false);
    expect(byKey.name.label).toBe("String");
    expect(byKey.name.description).toBe("Your full, legal name");
    expect(byKey.integer).toMatchObject({ minimum: 1, maximum: 100, default: 42 });
    expect(byKey.untitledMultipleSelectEnum).toMatchObject({ minItems: 1, maxItems: 3, default: ["Guitar"] });
    expect(byKey.titledSingleSelectEnum.options).toEqual([
      { value: "hero-1", label: "Superman" },
      { value: "hero-2", label: "Green Lantern" },
      { value: "hero-3", label: "Wonder Woman" },
    ]);
    expect(byKey.titledMultipleSelectEnum.options?.[1]).toEqual({ value: "fish-2", label: "Salmon" });
    expect(byKey.legacyTitledEnum.options?.[0]).toEqual({ value: "pet-1", label: "Cats" });
    expect(byKey.untitledSingleSelectEnum.options?.[2]).toEqual({ value: "Joey", label: "Joey" });
  });

  it("falls back to the key as label and reads text bounds and date-time", () => {
    const [field, when] = plan({
      type: "object",
      properties: { nick: { type: "string", minLength: 2, maxLength: 8 }, when: { type: "string", format: "date-time" } },
    });
    expect(field).toMatchObject({ key: "nick", label: "nick", kind: "text", minLength: 2, maxLength: 8, required: false });
    expect(when.kind).toBe("date-time");
  });

  it("labels legacy enumNames only when the lengths match", () => {
    const [field] = plan({ type: "object", properties: { p: { type: "string", enum: ["a", "b"], enumNames: ["Only one"] } } });
    expect(field.options).toEqual([
      { value: "a", label: "a" },
      { value: "b", label: "b" },
    ]);
  });

  it("accepts items.oneOf as a synonym of items.anyOf and items.enum", () => {
    const [a, b] = plan({
      type: "object",
      properties: {
        a: { type: "array", items: { oneOf: [{ const: "x", title: "Ex" }] } },
        b: { type: "array", items: { type: "string", enum: ["u", "v"] }, maxItems: 1 },
      },
    });
    expect(a).toMatchObject({ kind: "multiselect", options: [{ value: "x", label: "Ex" }] });
    expect(b).toMatchObject({ kind: "multiselect", maxItems: 1 });
  });

  it("tolerates unknown keywords and a nullable type", () => {
    const [field] = plan({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "Top",
      type: "object",
      properties: { code: { type: ["string", "null"], pattern: "^[A-Z]+$" } },
      additionalProperties: false,
    });
    expect(field.kind).toBe("text");
  });

  it("treats an object without properties as an empty form", () => {
    expect(fieldsFromSchema({ type: "object" })).toEqual({ ok: true, fields: [] });
  });

  it("reports a nested object with what it asked for", () => {
    const result = fieldsFromSchema({
      type: "object",
      properties: {
        name: { type: "string", title: "Name" },
        address: { type: "object", title: "Address", properties: { street: { type: "string" }, city: { type: "string" } } },
      },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toMatch(/Address.*nested/);
    expect(result.asked).toEqual(["Name: string", "Address: a group of fields (street, city)"]);
  });

  it("reports unknown types, untyped fields, arrays of non-choices and non-object tops", () => {
    const unknown = fieldsFromSchema({ type: "object", properties: { f: { type: "file" } } });
    expect(unknown.ok || unknown.problems[0]).toMatch(/type "file"/);
    const untyped = fieldsFromSchema({ type: "object", properties: { g: { description: "?" } } });
    expect(untyped.ok || untyped.problems[0]).toMatch(/does not say/);
    const list = fieldsFromSchema({ type: "object", properties: { h: { type: "array", items: { type: "number" } } } });
    expect(list.ok || list.problems[0]).toMatch(/not a list of choices/);
    const top = fieldsFromSchema({ type: "string" });
    expect(top.ok || top.problems[0]).toMatch(/single value/);
    expect(fieldsFromSchema(null).ok).toBe(false);
    expect(fieldsFromSchema([]).ok).toBe(false);
  });
});

describe("initialValues", () => {
  it("pre-fills defaults, unchecked booleans and empty multi-selects", () => {
    const values = initialValues(plan(everythingSchema));
    expect(values).toMatchObject({
      check: false,
      firstLine: "It was a dark and stormy night.",
      integer: 42,
      number: 3.14,
      untitledSingleSelectEnum: "Monica",
      untitledMultipleSelectEnum: ["Guitar"],
      titledSingleSelectEnum: "hero-1",
      legacyTitledEnum: "pet-1",
    });
    expect("name" in values).toBe(false);
    expect(initialValues(plan({ type: "object", properties: { m: { type: "array", items: { enum: ["a"] } } } }))).toEqual({ m: [] });
  });
});

describe("looksLikeCredential", () => {
  const field = (key: string, label = key, description?: string) => ({ key, label, description });
  it.each([
    field("password"),
    field("pw", "Password"),
    field("apiKey"),
    field("api_key"),
    field("k", "API key"),
    field("x", "x", "Your GitHub token"),
    field("clientSecret"),
    field("passphrase"),
    field("k", "Private key"),
    field("ssh", "ssh", "paste your private_key here"),
    field("APIKEY"),
  ])("flags %o", (f) => {
    expect(looksLikeCredential(f)).toBe(true);
  });

  it("does not flag ordinary fields, including all of server-everything's", () => {
    expect(looksLikeCredential(field("name", "Full name", "Your full, legal name"))).toBe(false);
    expect(plan(everythingSchema).some(looksLikeCredential)).toBe(false);
  });
});

describe("fieldsFromSchema on hostile schemas", () => {
  const nested = (levels: number): unknown => {
    let value: unknown = "x";
    for (let i = 0; i < levels; i++) value = [value];
    return value;
  };

  it("never turns a deep option, type or default into text", () => {
    const deep = nested(100_000);
    const plan = fieldsFromSchema({
      type: "object",
      properties: {
        a: { type: "string", enum: [deep] },
        b: { type: [deep] },
        c: { type: "string", oneOf: [{ const: deep, title: "t" }] },
        d: { type: "string", default: deep },
      },
    });
    expect(plan.ok).toBe(false);
    expect(() => JSON.stringify(plan)).not.toThrow();
    const ok = fieldsFromSchema({ type: "object", properties: { d: { type: "array", items: { enum: ["p"] }, default: [deep, "p"] } } });
    expect(ok.ok && initialValues(ok.fields)).toEqual({ d: [] });
  });

  it("reports forms past the limits instead of drawing them", () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { type: "string" }]));
    expect(fieldsFromSchema({ type: "object", properties: many })).toMatchObject({ ok: false, problems: [expect.stringMatching(/101 fields; at most 100/)] });
    const start = performance.now();
    const huge = fieldsFromSchema({ type: "object", properties: { c: { type: "string", enum: Array.from({ length: 100_000 }, (_, i) => `o${i}`) } } });
    expect(performance.now() - start).toBeLessThan(200);
    expect(huge).toMatchObject({ ok: false, problems: [expect.stringMatching(/100000 choices; at most 1000/)] });
    expect(fieldsFromSchema({ type: "object", properties: { t: { type: "string", title: "x".repeat(10_001) } } }).ok).toBe(false);
  });
});
