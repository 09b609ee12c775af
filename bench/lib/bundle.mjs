// Bundles one bench/<name>.ts with esbuild into out/bench/<name>.mjs, as the app ships its main
// process (bundled, plain `node`), not under tsx. The bundle sits two folders under the
// repository (out/bench/), so paths computed from import.meta.url two levels up (test/fixtures'
// repoRoot) find the repository and node_modules as they do from source.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export async function bundleBench(name) {
  await build({
    entryPoints: [path.join(root, "bench", `${name}.ts`)],
    outfile: path.join(root, "out", "bench", `${name}.mjs`),
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
}
