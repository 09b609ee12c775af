// Builds bench/gateway.ts with esbuild into out/bench/gateway.mjs, so the gateway is measured as
// the app ships it (bundled, plain `node`), not under tsx. The bundle sits two folders under the
// repository (out/bench/) so its fixtures helper finds repoRoot and node_modules as from source.
// Run: node bench/bundle-gateway.mjs && node out/bench/gateway.mjs
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
await build({
  entryPoints: [path.join(root, "bench/gateway.ts")],
  outfile: path.join(root, "out/bench/gateway.mjs"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  mainFields: ["module", "main"],
  external: ["keytar", "better-sqlite3", "bufferutil", "utf-8-validate", "electron"],
  // CommonJS dependencies inside an ESM bundle still call require.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: "warning",
});
