// Bundles the Electron side with esbuild (no Electron needed, nothing is run):
//   src/main/app/electron.ts    → out/main/index.js     (ESM; package.json says "type": "module")
//   src/preload/index.ts → out/preload/index.cjs (CommonJS: a sandboxed preload cannot be ESM)
// and copies the tray/window icons to out/assets, so the packaged app needs only out/**.
// The renderer is built separately by `vite build` into out/renderer.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// COMPANION_OUT lets the bundle smoke test build elsewhere without touching out/.
const out = path.resolve(process.env.COMPANION_OUT || path.join(root, "out"));
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

// Electron is provided by the runtime; keytar and better-sqlite3 are native addons rebuilt for
// Electron by electron-builder; ws's optional native helpers are loaded with try/catch when present.
const external = ["electron", "keytar", "better-sqlite3", "bufferutil", "utf-8-validate"];
const electronNode = "node22"; // Electron 45 ships Node 22

const common = {
  bundle: true,
  platform: "node",
  target: electronNode,
  sourcemap: false,
  logLevel: "warning",
  legalComments: "none",
  external,
  // Prefer a package's ESM build: jsonc-parser's CommonJS one is UMD with require()s of its own
  // files that a bundler cannot follow (the bundle would throw "Cannot find module './impl/format'").
  mainFields: ["module", "main"],
  define: { "process.env.COMPANION_VERSION": JSON.stringify(pkg.version) },
};

const started = Date.now();
const results = await Promise.all([
  build({
    ...common,
    entryPoints: [path.join(root, "src/main/app/electron.ts")],
    outfile: path.join(out, "main/index.js"),
    format: "esm",
    // Bundled CommonJS dependencies call require(); give the ESM bundle a real one.
    banner: { js: "import { createRequire as __companionCreateRequire } from 'node:module'; const require = __companionCreateRequire(import.meta.url);" },
    metafile: true,
  }),
  // The keychain helper, run as an Electron utility process (src/main/desktop/keychain-helper.ts).
  build({
    ...common,
    entryPoints: [path.join(root, "src/main/desktop/keychain-entry.ts")],
    outfile: path.join(out, "main/keychain-helper.cjs"),
    format: "cjs",
    metafile: true,
  }),
  build({
    ...common,
    entryPoints: [path.join(root, "src/preload/index.ts")],
    outfile: path.join(out, "preload/index.cjs"),
    format: "cjs",
    // A sandboxed preload can require only `electron` (and a few polyfilled builtins).
    external: ["electron"],
    target: "chrome140",
    metafile: true,
  }),
]);

mkdirSync(path.join(out, "assets"), { recursive: true });
for (const file of readdirSync(path.join(root, "assets"))) {
  if (file.endsWith(".png")) copyFileSync(path.join(root, "assets", file), path.join(out, "assets", file));
}

for (const result of results) {
  for (const [file, info] of Object.entries(result.metafile.outputs)) {
    if (!file.endsWith(".map")) console.log(`${path.relative(root, path.resolve(file))}  ${(info.bytes / 1024).toFixed(1)} KB`);
  }
}
console.log(`build-electron: done in ${Date.now() - started} ms`);
