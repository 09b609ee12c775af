// The real launcher in a child process, for the local-trust tests: exit code and both streams.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const BIN = join(ROOT, "bin/toolnexus-companion");

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

export async function cli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { timeout: 60_000, ...options });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}
