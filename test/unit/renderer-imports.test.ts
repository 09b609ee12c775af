// The page runs without 'unsafe-eval', so nothing it loads may compile code at runtime: ajv (and
// the module that wraps it, src/forms/check-answer.ts) stays in main. This walks the renderer's
// import graph from its entry (test/helpers/imports.ts, as the layer test reads it) and fails if
// either is reachable.
import { describe, expect, it } from "vitest";
import { importGraph } from "../helpers/imports";

describe("the renderer's imports", () => {
  const { files, packages } = importGraph("src/renderer/main.ts");

  it("reach the components (the walk works)", () => {
    const names = [...files];
    expect(names).toContain("src/renderer/components/QuestionForm.svelte");
    expect(names).toContain("src/renderer/components/ToolRunner.svelte");
    expect(names).toContain("src/forms/prepare-form-data.ts");
  });

  it("never include ajv or the validator that wraps it", () => {
    expect([...packages].filter((p) => p.startsWith("ajv"))).toEqual([]);
    expect([...files]).not.toContain("src/forms/check-answer.ts");
  });
});
