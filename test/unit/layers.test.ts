// The skeleton, held: every import in src/ against a table of which folder may import which
// (the README's Layout), and no import cycle between files. Reads the code as text, so it runs in
// the fast lane and needs nothing built.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli";
import { importsOf, layerOf, LAYERS, sourceFiles, violations, cycles, type ImportEdge } from "../helpers/imports";

describe("layers", () => {
  const edges: ImportEdge[] = sourceFiles().flatMap(importsOf);

  it("every source file belongs to a layer", () => {
    const homeless = sourceFiles().filter((file) => !layerOf(file));
    expect(homeless).toEqual([]);
  });

  it("no import runs against the table", () => {
    expect(violations(edges).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it("no two files import each other, however far round", () => {
    expect(cycles(edges)).toEqual([]);
  });

  it("the check fails on an upward import (a feature reaching the composition root)", () => {
    const planted: ImportEdge = { from: "src/main/inbox/inbox.ts", to: "src/main/app/core.ts", typeOnly: false };
    expect(violations([planted])).toEqual([planted]);
    const kitToFeature: ImportEdge = { from: "src/main/http/listener.ts", to: "src/main/gateway/token-refusal.ts", typeOnly: false };
    expect(violations([kitToFeature])).toEqual([kitToFeature]);
  });

  it("the check finds a cycle", () => {
    const a = "src/main/base/a.ts";
    const b = "src/main/base/b.ts";
    expect(cycles([{ from: a, to: b, typeOnly: false }, { from: b, to: a, typeOnly: true }])).toEqual([[a, b]]);
  });

  it("the launcher's imports name files that exist", () => {
    const launcher = readFileSync(join(ROOT, "bin", "toolnexus-companion"), "utf8");
    const named = [...launcher.matchAll(/import\(\s*"(\.\.\/[^"]+)"/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(1);
    expect(named.filter((spec) => !existsSync(join(ROOT, "bin", spec)))).toEqual([]);
  });

  it("test/unit mirrors src/: a unit test sits in the folder of what it tests", () => {
    const mirrored = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [`${dir}/${e.name}`, ...mirrored(`${dir}/${e.name}`)] : []));
    const folders = ["main", "forms", "shared", "preload"].flatMap((top) => [`test/unit/${top}`, ...mirrored(`test/unit/${top}`)]);
    expect(folders.filter((folder) => !existsSync(join(ROOT, folder.replace(/^test\/unit\//, "src/"))))).toEqual([]);
  });

  it("no source file reaches past the core's egress (core.internals is for tests)", () => {
    const reaching = sourceFiles().filter((file) => file !== "src/main/app/core.ts" && /\.internals\b/.test(readFileSync(join(ROOT, file), "utf8")));
    expect(reaching).toEqual([]);
  });

  it("no file re-exports another folder's names: each is imported from where it is defined", () => {
    const reexporting = sourceFiles().filter((file) => /^export\s+(\*|(type\s+)?\{[^}]*\})\s+from\s+["']\.\.\//m.test(readFileSync(join(ROOT, file), "utf8")));
    expect(reexporting).toEqual([]);
  });

  it("the table names only folders that exist", () => {
    const used = new Set(sourceFiles().map(layerOf));
    expect(LAYERS.map((l) => l.name).filter((name) => !used.has(name))).toEqual([]);
  });
});
