// The companion's CLI as a person runs it: the real launcher (bin/toolnexus-companion) in a child
// process, in a temporary HOME so no file of the machine's own is read or written.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = path.join(ROOT, "bin", "toolnexus-companion");

/** Every control a terminal would act on (\n and \t are checked apart, where they matter). */
// eslint-disable-next-line no-control-regex
export const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export interface TempHome {
  dir: string;
  env: NodeJS.ProcessEnv;
  remove(): void;
}

/** A fresh HOME with the XDG folders inside it; the environment's own config choices dropped. */
export function tempHome(prefix: string): TempHome {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const { TOOLNEXUS_CONFIG: _c, TOOLNEXUS_HISTORY_DB: _h, TOOLNEXUS_STATE_DIR: _s, ...rest } = process.env;
  const env = {
    ...rest,
    HOME: dir,
    USERPROFILE: dir,
    XDG_CONFIG_HOME: path.join(dir, ".config"),
    XDG_DATA_HOME: path.join(dir, ".local", "share"),
    XDG_STATE_HOME: path.join(dir, ".local", "state"),
    APPDATA: path.join(dir, "AppData", "Roaming"),
  };
  return { dir, env, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {}): CliRun {
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, input: options.input, encoding: "utf8", timeout: 30_000 });
  return { code: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr };
}

/**
 * `toolnexus-companion start …` until its stderr matches `until` (or `timeoutMs` passes), then
 * SIGTERM and its exit. Resolves with everything it wrote.
 */
export function startUntil(args: string[], env: NodeJS.ProcessEnv, until: RegExp, timeoutMs = 30_000): Promise<CliRun & { matched: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, "start", ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let matched = false;
    const stop = () => {
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    };
    const timer = setTimeout(stop, timeoutMs);
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
      if (!matched && until.test(stderr)) {
        matched = true;
        stop();
      }
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, matched });
    });
  });
}
