// `npm run bench`: runs every bench/*.ts except this file, one at a time (benches must not
// compete for the CPU), each in its own process, and exits non-zero if any of them failed.
// A bench with a bench/bundle-<name>.mjs beside it is measured as the app ships: bundled by
// esbuild into out/bench/<name>.mjs and run under plain node, not under tsx.
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const self = basename(fileURLToPath(import.meta.url));
const tsxCli = join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist", "cli.mjs");

const benches = readdirSync(here)
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts") && name !== self)
  .sort();

function run(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: "inherit", cwd: join(here, "..") });
    child.on("error", (error) => {
      console.error(`${args.join(" ")}: ${error.message}`);
      resolve(1);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function runOne(file: string): Promise<number> {
  const stem = file.replace(/\.ts$/, "");
  const bundler = join(here, `bundle-${stem}.mjs`);
  if (!existsSync(bundler)) return run([tsxCli, join(here, file)]);
  const built = await run([bundler]);
  return built !== 0 ? built : run([join(here, "..", "out", "bench", `${stem}.mjs`)]);
}

const failed: string[] = [];
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const started = performance.now();
  const code = await runOne(file);
  console.log(`--- ${file}: ${code === 0 ? "ok" : `exit ${code}`} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (code !== 0) failed.push(file);
}
console.log(`\n${benches.length - failed.length}/${benches.length} benches ran${failed.length ? `; failed: ${failed.join(", ")}` : ""}`);
process.exit(failed.length ? 1 : 0);
