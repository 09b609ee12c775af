import { describe, expect, it } from "vitest";
import { checkFormAnswer, checkToolArguments, prepareFormData } from "../../../src/forms/check-answer";

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

// Class 3 of issue 7: whatever the schema, a check returns in bounded time.
describe("checks in bounded time", () => {
  const evil = "a".repeat(40) + "!";
  const timed = <T>(work: () => T): { value: T; ms: number } => {
    const start = performance.now();
    const value = work();
    return { value, ms: performance.now() - start };
  };

  it("a catastrophic pattern inside allOf/anyOf does not run in a form check", () => {
    const schema = {
      type: "object",
      properties: { s: { type: "string" } },
      allOf: [{ properties: { s: { pattern: "^(a+)+$" } } }],
      anyOf: [{ properties: { s: { pattern: "^(a|a)+$" } } }],
    };
    const { value, ms } = timed(() => checkFormAnswer(schema, { s: evil }));
    expect(ms).toBeLessThan(200);
    expect(value.ok).toBe(true);
  });

  it("a catastrophic pattern on a field runs in linear time and still checks", () => {
    const schema = { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } };
    const { value, ms } = timed(() => checkFormAnswer(schema, { s: evil }));
    expect(ms).toBeLessThan(200);
    expect(value.fieldErrors.s).toHaveLength(1);
    expect(checkFormAnswer(schema, { s: "aaaa" }).ok).toBe(true);
  });

  it("a tool's schema keeps allOf/anyOf, and its patterns run on re2js", () => {
    const schema = {
      type: "object",
      properties: { s: { type: "string" } },
      allOf: [{ anyOf: [{ properties: { s: { pattern: "^(a+)+$" } } }, { properties: { s: { pattern: "^(a|aa)+$" } } }] }],
    };
    const { value, ms } = timed(() => checkToolArguments(schema, { s: evil }));
    expect(ms).toBeLessThan(200);
    expect(value.ok).toBe(false);
    expect(checkToolArguments(schema, { s: "aaa" }).ok).toBe(true);
  });

  it("a pattern re2js cannot compile, or one too long, is dropped rather than compiled", () => {
    const schema = { type: "object", properties: { s: { type: "string", pattern: "^(?=a)(a+)+$" }, t: { type: "string", pattern: "(a+)+" + "b".repeat(2000) } } };
    const { value, ms } = timed(() => checkToolArguments(schema, { s: evil, t: evil }));
    expect(ms).toBeLessThan(200);
    expect(value.ok).toBe(true);
    expect(checkFormAnswer(schema, { s: evil, t: evil }).ok).toBe(true);
  });

  it("a 100k-option enum is refused for a form with a reason, and checked quickly for a tool", () => {
    const options = Array.from({ length: 100_000 }, (_, i) => `o${i}`);
    const schema = { type: "object", properties: { c: { type: "string", enum: options } } };
    const form = timed(() => checkFormAnswer(schema, { c: "o99999" }));
    expect(form.ms).toBeLessThan(200);
    expect(form.value.ok).toBe(false);
    expect(form.value.errors[0]).toMatch(/100000 choices; at most 1000/);
    const tool = timed(() => checkToolArguments(schema, { c: "o99999" }));
    expect(tool.ms).toBeLessThan(200);
    expect(tool.value.errors[0]).toMatch(/input schema cannot be checked: it is larger than 262144 bytes/);
  });

  it("refuses forms past the property and string limits, with a reason", () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { type: "string" }]));
    expect(checkFormAnswer({ type: "object", properties: many }, {}).errors[0]).toMatch(/101 fields; at most 100/);
    const long = { type: "object", properties: { a: { type: "string", title: "x".repeat(10_001) } } };
    expect(checkFormAnswer(long, {}).errors[0]).toMatch(/longer than 10000 characters/);
    const ok = checkFormAnswer({ type: "object", properties: { a: { type: "string" } } }, { a: "y".repeat(10_001) });
    expect(ok.fieldErrors.a).toEqual(["is longer than 10000 characters"]);
  });

  it("a deep tool schema gives a clear message, never a throw", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 10_000; i++) deep = { anyOf: [deep] };
    const { value, ms } = timed(() => checkToolArguments({ type: "object", properties: { x: deep } }, { x: "a" }));
    expect(ms).toBeLessThan(200);
    expect(value.errors[0]).toMatch(/nested more than 64 levels/);
    const form = timed(() => checkFormAnswer({ type: "object", properties: { x: deep } }, { x: "a" }));
    expect(form.ms).toBeLessThan(200);
    expect(form.value.ok).toBe(true);
  });

  it("the tool validator is compiled once per schema object", () => {
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    checkToolArguments(schema, { n: 1 });
    const { ms } = timed(() => {
      for (let i = 0; i < 1000; i++) checkToolArguments(schema, { n: i });
    });
    expect(ms).toBeLessThan(200);
  });
});

describe("patterns whose automaton blows up", () => {
  // `a[ab]{500}$` defeats re2js's DFA; its NFA costs length × program size (seconds on 10k chars).
  it("are checked within 200 ms on the longest text a form takes, and still enforced on short text", () => {
    const schema = { type: "object", properties: { s: { type: "string", pattern: "a[ab]{500}$" } } };
    const long = Array.from({ length: 10_000 }, (_, i) => "ab"[(i * 7919) % 3 === 0 ? 0 : 1]).join("");
    for (const check of [checkFormAnswer, checkToolArguments]) {
      check(schema, { s: "x" });
      const start = performance.now();
      check(schema, { s: long });
      expect(performance.now() - start).toBeLessThan(200);
      expect(check({ type: "object", properties: { s: { type: "string", pattern: "^a[ab]{3}$" } } }, { s: "abbbb" }).ok).toBe(false);
    }
  });
});
