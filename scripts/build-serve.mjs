// Bundles browser mode with esbuild, so `npm run serve` runs plain `node` on built code (no tsx
// wrapper process between the person and the companion):
//   src/main/app/serve.ts → out/serve/serve.js (ESM; package.json says "type": "module")
// Native addons (keytar, better-sqlite3) stay external and load from node_modules; the bundle
// must therefore sit inside the repository. SERVE_OUT names another directory directly under
// out/ (tests build their own copy there without racing `npm run serve`). The file is written
// to a temporary name and renamed, so a companion starting meanwhile never reads half a bundle.
import { build } from "esbuild";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.resolve(process.env.SERVE_OUT || path.join(root, "out", "serve"));
// serve.js finds the page in out/renderer of the install folder above it (base/package-root.ts).
if (path.dirname(path.dirname(outDir)) !== root || path.basename(path.dirname(outDir)) !== "out") {
  console.error(`build-serve: SERVE_OUT must be a folder directly under ${path.join(root, "out")}, not ${outDir}`);
  process.exit(1);
}
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

const started = Date.now();
const result = await build({
  entryPoints: [path.join(root, "src/main/app/serve.ts")],
  outfile: path.join(outDir, "serve.js"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: false,
  logLevel: "warning",
  legalComments: "none",
  write: false,
  // Prefer a package's ESM build: jsonc-parser's CommonJS one is UMD with require()s of its own
  // files that a bundler cannot follow.
  mainFields: ["module", "main"],
  // Native addons, and ws's optional native helpers (loaded with try/catch when present).
  external: ["keytar", "better-sqlite3", "bufferutil", "utf-8-validate", "electron"],
  define: { "process.env.COMPANION_VERSION": JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies call require(); give the ESM bundle a real one.
  banner: { js: "import { createRequire as __companionCreateRequire } from 'node:module'; const require = __companionCreateRequire(import.meta.url);" },
});

mkdirSync(outDir, { recursive: true });
for (const file of result.outputFiles) {
  const temp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(temp, file.contents);
  renameSync(temp, file.path);
  console.log(`${path.relative(root, file.path)}  ${(file.contents.length / 1024).toFixed(1)} KB`);
}
console.log(`build-serve: done in ${Date.now() - started} ms`);
