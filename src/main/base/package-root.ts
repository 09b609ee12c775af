// Where the companion is installed, found from the file that is running — a source checkout
// (src/main/…), the esbuild bundle (out/serve/serve.js, out/main/index.js) or a packaged app.
// A path written relative to one source file (`new URL("../..", import.meta.url)`) points
// somewhere else once that file is bundled into out/, so everything that needs the install
// folder asks here instead.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, parse } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "toolnexus-companion";
/** The CLI's launcher inside the install folder (package.json "bin"). */
const LAUNCHER = join("bin", "toolnexus-companion");

function isOurs(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown }).name === PACKAGE_NAME;
  } catch {
    return false;
  }
}

/** The nearest folder at or above `from` whose package.json is the companion's; undefined if none. */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string | undefined {
  let dir = dirname(from);
  for (;;) {
    if (isOurs(dir)) return dir;
    if (dir === parse(dir).root) return undefined;
    dir = dirname(dir);
  }
}

export interface LauncherOptions {
  /** The running file (a test passes the bundle's path); this module's own file by default. */
  from?: string;
  /** Electron's `process.resourcesPath` in a packaged app, where a shipped launcher sits. */
  resourcesPath?: string;
}

/**
 * The absolute path of `bin/toolnexus-companion` for this install: beside a packaged app's
 * resources when it ships one there, else in the package root above the running file. Throws
 * with the places it looked when neither exists, rather than handing agents a path that fails.
 */
export function launcherPath(options: LauncherOptions = {}): string {
  const resources = options.resourcesPath ?? (process as { resourcesPath?: string }).resourcesPath;
  const looked: string[] = [];
  if (resources) {
    const shipped = join(resources, LAUNCHER);
    if (existsSync(shipped)) return shipped;
    looked.push(shipped);
  }
  const root = packageRoot(options.from);
  if (root) {
    const path = join(root, LAUNCHER);
    if (existsSync(path)) return path;
    looked.push(path);
  }
  throw new Error(`cannot find the companion's launcher (looked at ${looked.length ? looked.join(", ") : `every folder above ${options.from ?? "this file"}`})`);
}
