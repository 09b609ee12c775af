// The import graph of src/, read as text (static imports, re-exports and dynamic import()s with
// a relative path), and the table of layers the layer test holds it to (the README's Layout).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./cli";

export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

export interface Layer {
  name: string;
  /** Folders (or files) of the layer, relative to the repository; the longest match wins. */
  paths: string[];
  /** The layers it may import besides itself. */
  may: string[];
}

const KITS = ["rpc", "http", "secrets", "process"];
const FEATURES = ["inbox", "auth", "mcp", "mcp/config", "rules", "history", "client-configs", "hooks", "devices", "reach"];
const BELOW_FEATURES = [...KITS, "base", "shared", "forms"];
const WAYS_IN = ["desktop", "cli", "gateway", "api"];

export const LAYERS: Layer[] = [
  { name: "shared", paths: ["src/shared"], may: [] },
  { name: "forms", paths: ["src/forms"], may: ["shared"] },
  { name: "preload", paths: ["src/preload"], may: ["shared"] },
  { name: "renderer", paths: ["src/renderer"], may: ["shared", "forms"] },
  { name: "base", paths: ["src/main/base"], may: ["shared"] },
  ...KITS.map((name) => ({ name, paths: [`src/main/${name}`], may: ["base", "shared", "forms"] })),
  { name: "inbox", paths: ["src/main/inbox"], may: BELOW_FEATURES },
  { name: "auth", paths: ["src/main/auth"], may: ["inbox", ...BELOW_FEATURES] },
  // The connection signs in to remote servers through auth/ (its one feature below it).
  { name: "mcp", paths: ["src/main/mcp"], may: ["inbox", "auth", "mcp/config", ...BELOW_FEATURES] },
  { name: "mcp/config", paths: ["src/main/mcp/config"], may: ["inbox", ...BELOW_FEATURES] },
  // A rule never allows a shell command: it reads a tool call as the permission hooks do.
  { name: "rules", paths: ["src/main/rules"], may: ["inbox", "hooks", ...BELOW_FEATURES] },
  { name: "history", paths: ["src/main/history"], may: ["inbox", ...BELOW_FEATURES] },
  // Other apps' configs are read into, and imported as, entries of the companion's own config.
  { name: "client-configs", paths: ["src/main/client-configs"], may: ["inbox", "mcp/config", ...BELOW_FEATURES] },
  { name: "hooks", paths: ["src/main/hooks"], may: ["inbox", ...BELOW_FEATURES] },
  // Questions that find the person away from the desk: Web Push, ntfy, webhooks, email.
  { name: "reach", paths: ["src/main/reach"], may: ["inbox", ...BELOW_FEATURES] },
  // Paired devices: their listener is a second one of the http kit's parts, on another address.
  { name: "devices", paths: ["src/main/devices"], may: ["inbox", ...BELOW_FEATURES] },
  ...WAYS_IN.map((name) => ({ name, paths: [`src/main/${name}`], may: [...FEATURES, ...BELOW_FEATURES] })),
  { name: "app", paths: ["src/main/app"], may: [...WAYS_IN, ...FEATURES, ...BELOW_FEATURES] },
  { name: "demo", paths: ["src/demo"], may: [] },
];

const SOURCE = /\.(ts|svelte|mjs)$/;

export function sourceFiles(dir = "src"): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out.sort();
}

export function layerOf(file: string): string | undefined {
  let best: { name: string; length: number } | undefined;
  for (const layer of LAYERS) {
    for (const path of layer.paths) {
      const inside = file === path || file.startsWith(`${path}/`);
      if (inside && (!best || path.length > best.length)) best = { name: layer.name, length: path.length };
    }
  }
  return best?.name;
}

// `import … from "./x"`, `import type … from`, `export … from`, `import("./x")`, `import "./x"`.
const IMPORT = /(?:^|[\s;])(import|export)\s+(type\s+)?(?:[^"'`;]*?\sfrom\s*)?["'](\.{1,2}\/[^"']+)["']|\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/gm;

function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(ROOT, dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.mjs`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(ROOT, candidate);
  }
  return undefined;
}

/** Comments stripped first, so an import written in a comment or a doc example draws no edge. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

export function importsOf(file: string): ImportEdge[] {
  const text = code(readFileSync(join(ROOT, file), "utf8"));
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[3] ?? match[4];
    const to = resolveImport(file, spec);
    if (!to) throw new Error(`${file}: import "${spec}" names no file`);
    if (to.startsWith("src/")) edges.push({ from: file, to, typeOnly: Boolean(match[2]) });
  }
  return edges;
}

// A bare specifier: `import … from "pkg"`, `import "pkg"`, `import("pkg")` (node: builtins too).
const PACKAGE = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^"'`;]*?\sfrom\s*)?["']([^."'][^"']*)["']|\bimport\(\s*["']([^."'][^"']*)["']\s*\)/gm;

/** The packages a file imports, by name (`@scope/name` or `name`). */
export function packagesOf(file: string): string[] {
  const text = code(readFileSync(join(ROOT, file), "utf8"));
  return [...text.matchAll(PACKAGE)].map((m) => {
    const spec = m[1] ?? m[2];
    return spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
  });
}

/** Every file reachable from `entry` by its imports, and the packages they import. */
export function importGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const name of packagesOf(file)) packages.add(name);
    for (const edge of importsOf(file)) queue.push(edge.to);
  }
  return { files, packages };
}

export function violations(edges: ImportEdge[]): ImportEdge[] {
  return edges.filter((edge) => {
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    if (!from || !to || from === to) return false;
    const layer = LAYERS.find((l) => l.name === from);
    return !layer?.may.includes(to);
  });
}

/** Each cycle once, as its files in order from the smallest name (Tarjan's components). */
export function cycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let top: string;
      do {
        top = stack.pop()!;
        onStack.delete(top);
        component.push(top);
      } while (top !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}
