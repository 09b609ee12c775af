// Browser mode as a real process for the local-trust tests: this file's own bundle of serve.ts
// (scripts/build-serve.mjs into a folder directly under out/), started outside any D-Bus session
// so there is no Secret Service, with HOME and the state folder in a temporary directory.
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const BIN = join(ROOT, "bin", "toolnexus-companion");
export const ECHO = join(ROOT, "test", "fixtures", "echo-env.mjs");

/** Builds out/<name>/serve.js and returns its path and a remover. */
export function buildServe(name: string): { bundle: string; remove(): void } {
  const dir = join(ROOT, "out", `${name}-${process.pid}`);
  execFileSync(process.execPath, ["scripts/build-serve.mjs"], { cwd: ROOT, env: { ...process.env, SERVE_OUT: dir }, stdio: "pipe" });
  return { bundle: join(dir, "serve.js"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An environment with no session bus (so no keychain), HOME and state folder under `dir`. */
export function headlessEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, ".config"), TOOLNEXUS_STATE_DIR: join(dir, "state"), ...extra };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.TOOLNEXUS_COMPANION_TOKEN;
  delete env.TOOLNEXUS_COMPANION_URL;
  delete env.XDG_STATE_HOME;
  return env;
}

export interface Running {
  child: ChildProcess;
  url: string;
  token: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts the bundle on a free port; resolves once it printed its link. */
export function startServe(bundle: string, config: string, env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(process.execPath, [bundle, "--config", config, "--port", "0"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<void>((r) => child.on("exit", () => r()));
  return new Promise<Running>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`serve printed no link; stderr: ${stderr}`));
    }, 45_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before printing a link; stderr: ${stderr}`));
    });
    child.stdout!.on("data", (d) => {
      stdout += d;
      const match = /Toolnexus Companion is running: (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        child,
        url: match[1],
        token: decodeURIComponent(match[2]),
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null) child.kill("SIGTERM");
          await exited;
        },
      });
    });
  });
}

const run = promisify(execFile);

/** Runs `bin/toolnexus-companion …` from the source checkout. */
export async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env, cwd: ROOT, timeout: 30_000 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}
