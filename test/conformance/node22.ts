// The conformance CLI needs Node 22 while the project runs on Node 20. A Node 22 binary comes
// from the npm package node-<platform>-<arch>@22, installed once into the git-ignored .tmp/node22
// and reused by later runs.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export async function ensureNode22(root: string): Promise<string> {
  const pkg = `node-${process.platform}-${process.arch}`;
  const prefix = join(root, ".tmp", "node22");
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
