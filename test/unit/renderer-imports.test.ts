// The page runs without 'unsafe-eval', so nothing it loads may compile code at runtime: ajv (and
// the module that wraps it, src/forms/check-answer.ts) stays in main. This walks the renderer's
// import graph from its entry and fails if either is reachable.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const IMPORT = /\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\bimport\s+["']([^"']+)["']/g;

function resolveLocal(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  return [base, `${base}.ts`, `${base}.svelte.ts`, join(base, "index.ts")].find((c) => existsSync(c) && statSync(c).isFile());
}

function importGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? match[3];
      if (spec.startsWith(".")) {
        const target = resolveLocal(file, spec);
        if (target) queue.push(target);
      } else {
        packages.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);
      }
    }
  }
  return { files, packages };
}

describe("the renderer's imports", () => {
  const { files, packages } = importGraph(join(root, "src", "renderer", "main.ts"));

  it("reach the components (the walk works)", () => {
    const names = [...files].map((f) => relative(root, f));
    expect(names).toContain("src/renderer/components/QuestionForm.svelte");
    expect(names).toContain("src/renderer/components/ToolRunner.svelte");
    expect(names).toContain("src/forms/prepare-form-data.ts");
  });

  it("never include ajv or the validator that wraps it", () => {
    expect([...packages].filter((p) => p.startsWith("ajv"))).toEqual([]);
    expect([...files].map((f) => relative(root, f))).not.toContain("src/forms/check-answer.ts");
  });
});
