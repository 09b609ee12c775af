import { describe, expect, it } from "vitest";
import { schemaFingerprint } from "../../../../src/main/rules/fingerprint";

const base = {
  type: "object",
  properties: {
    branch: { type: "string", title: "Branch", description: "Which branch", default: "main" },
    count: { type: "integer", minimum: 1, maximum: 5 },
    env: { type: "string", enum: ["dev", "prod"] },
  },
  required: ["branch", "env"],
};

describe("schemaFingerprint", () => {
  it("is stable: the same form in another key order, required order, or with unknown keywords", () => {
    const shuffled = {
      required: ["env", "branch"],
      properties: {
        env: { enum: ["dev", "prod"], type: "string" },
        count: { maximum: 5, type: "integer", minimum: 1, "x-ui": { widget: "slider" } },
        branch: { default: "main", title: "Branch", type: "string", description: "Which branch" },
      },
      type: "object",
      $schema: "https://json-schema.org/draft/2020-12/schema",
    };
    const a = schemaFingerprint(base);
    expect(a).toMatch(/^sha256:[0-9a-f]{32}$/);
    expect(schemaFingerprint(shuffled)).toBe(a);
  });

  it("ignores prose that does not change what is asked (descriptions, defaults)", () => {
    const reworded = structuredClone(base);
    reworded.properties.branch.description = "The branch to deploy";
    reworded.properties.branch.default = "develop";
    expect(schemaFingerprint(reworded)).toBe(schemaFingerprint(base));
  });

  it("changes with a new field, another type, another choice, another limit, another title, or what is required", () => {
    const a = schemaFingerprint(base);
    const variants: ((s: typeof base) => void)[] = [
      (s) => ((s.properties as Record<string, unknown>).extra = { type: "string" }),
      (s) => ((s.properties.count as Record<string, unknown>).type = "number"),
      (s) => s.properties.env.enum.push("staging"),
      (s) => (s.properties.count.maximum = 6),
      (s) => (s.properties.branch.title = "Target"),
      (s) => (s.required = ["branch"]),
    ];
    const seen = new Set([a]);
    for (const change of variants) {
      const copy = structuredClone(base);
      change(copy);
      const b = schemaFingerprint(copy);
      expect(b).toBeDefined();
      expect(seen.has(b!)).toBe(false);
      seen.add(b!);
    }
  });

  it("has no fingerprint for what is not a form", () => {
    expect(schemaFingerprint(undefined)).toBeUndefined();
    expect(schemaFingerprint("form")).toBeUndefined();
    expect(schemaFingerprint([])).toBeUndefined();
  });
});
