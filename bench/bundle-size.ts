// Prints the renderer bundle's size (JS + CSS, raw and gzip) against the 120 KB gzip target.
// Reads out/renderer; builds it first with `vite build` when it is missing or --build is given.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const TARGET_GZIP = 120 * 1024;
const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(root, "out", "renderer");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

export interface BundleSize {
  files: { file: string; raw: number; gzip: number }[];
  raw: number;
  gzip: number;
  target: number;
}

export function measureBundle(build = false): BundleSize {
  if (build || !existsSync(join(outDir, "index.html"))) {
    execFileSync(process.execPath, [join(root, "node_modules", "vite", "bin", "vite.js"), "build", "--logLevel", "warn"], {
      cwd: root,
      stdio: "inherit",
    });
  }
  const measured = files(outDir)
    .filter((f) => f.endsWith(".js") || f.endsWith(".css"))
    .map((file) => {
      const bytes = readFileSync(file);
      return { file: file.slice(outDir.length + 1), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    });
  return {
    files: measured,
    raw: measured.reduce((n, f) => n + f.raw, 0),
    gzip: measured.reduce((n, f) => n + f.gzip, 0),
    target: TARGET_GZIP,
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const size = measureBundle(process.argv.includes("--build"));
  for (const f of size.files) console.log(`${f.file.padEnd(36)} ${kb(f.raw).padStart(10)} raw ${kb(f.gzip).padStart(9)} gzip`);
  const ratio = size.gzip / size.target;
  console.log(
    `renderer bundle: ${kb(size.raw)} raw, ${kb(size.gzip)} gzip — ${(ratio * 100).toFixed(0)}% of the ${kb(size.target)} gzip target ${ratio <= 1 ? "(ok)" : "(OVER)"}`,
  );
  if (ratio > 1) process.exitCode = 1;
}
