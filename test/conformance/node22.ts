// The conformance CLI needs Node 22 while the project runs on Node 20. A Node 22 binary comes
// from the npm package node-<platform>-<arch>@22, installed once into the git-ignored .tmp/node22
// and reused by later runs. Test files run in parallel workers, so the install takes a lock.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

const LOCK_STALE_MS = 5 * 60_000;

/** A directory as a lock: mkdir is atomic. A lock older than LOCK_STALE_MS is a crashed run's. */
async function withLock<T>(dir: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(join(dir, ".."), { recursive: true });
  for (;;) {
    try {
      mkdirSync(dir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      try {
        if (Date.now() - statSync(dir).mtimeMs > LOCK_STALE_MS) rmSync(dir, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function ensureNode22(root: string): Promise<string> {
  const prefix = join(root, ".tmp", "node22");
  return withLock(`${prefix}.lock`, () => install(root, prefix));
}

async function install(root: string, prefix: string): Promise<string> {
  const pkg = `node-${process.platform}-${process.arch}`;
  const binary = join(prefix, "node_modules", pkg, "bin", "node");
  if (!(existsSync(binary) && (await versionOf(binary))?.startsWith("v22."))) {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    try {
      await run(npm, ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", `${pkg}@22`], {
        cwd: root,
        timeout: 240_000,
      });
    } catch (error) {
      const e = error as { message: string; stderr?: string };
      throw new Error(`Installing ${pkg}@22 into ${prefix} failed (the conformance CLI needs Node 22): ${e.stderr?.trim() || e.message}`);
    }
  }
  const version = await versionOf(binary);
  if (!version?.startsWith("v22.")) {
    throw new Error(`${binary} is not a working Node 22 (got ${version ?? "nothing"}); the conformance CLI needs Node 22.`);
  }
  return binary;
}

async function versionOf(binary: string): Promise<string | undefined> {
  try {
    return (await run(binary, ["--version"], { timeout: 10_000 })).stdout.trim();
  } catch {
    return undefined;
  }
}
