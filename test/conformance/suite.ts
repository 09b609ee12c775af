// The official MCP conformance suite's CLI (@modelcontextprotocol/conformance) as both test files
// run it: on the Node 22 it needs (node22.ts), with V8's compile cache (a Node 22 feature) in the
// git-ignored .tmp, so each of its processes does not compile its 0.9 MB bundle afresh.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);
export const conformanceCli = join(dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist", "index.js");

export interface Check {
  id: string;
  name?: string;
  status: string;
  errorMessage?: string;
  details?: { statusCode?: number };
}

function suiteEnv(): NodeJS.ProcessEnv {
  return { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", NODE_COMPILE_CACHE: join(root, ".tmp", "node22-compile-cache") };
}

/** Strips ANSI colours so a failure message reads cleanly. */
const plain = (text: string) => text.replace(/\x1B\[[0-9;]*m/g, "");

/** One run of the CLI: its exit code and everything it printed; killed after timeoutMs. */
export function runCli(node: string, args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(node, [conformanceCli, ...args], { cwd: root, env: suiteEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolvePromise({ code: -1, output: plain(`${output}\n${error.message}`) });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output: plain(output) });
    });
  });
}

export interface ScenarioResult {
  /** The scenario's checks as the suite saved them (checks.json); none when it saved nothing. */
  checks: Check[];
  /** What the CLI printed while the scenario ran (or, when it saved nothing, all it printed). */
  output: string;
}

/**
 * One CLI process running several server scenarios one after another (`server --requirements`),
 * each scenario's result given as soon as the suite has saved it. The suite runs each exactly as
 * `server --scenario <name>` does (same wire version, same checks); only the process is shared.
 */
export function runServerScenarios(node: string, args: string[], timeoutMs: number): { result(scenario: string): Promise<ScenarioResult>; close(): Promise<void> } {
  const waiting = new Map<string, (r: ScenarioResult) => void>();
  const results = new Map<string, Promise<ScenarioResult>>();
  let all = "";
  let ended: string | undefined;
  const promiseFor = (scenario: string) => {
    if (!results.has(scenario)) {
      const never = { checks: [], output: `${all}\n(the suite never ran ${scenario}: ${ended})` };
      results.set(scenario, ended ? Promise.resolve(never) : new Promise((r) => waiting.set(scenario, r)));
    }
    return results.get(scenario)!;
  };
  const settle = (scenario: string, result: ScenarioResult) => {
    promiseFor(scenario);
    waiting.get(scenario)?.(result);
    waiting.delete(scenario);
  };

  const child = spawn(node, [conformanceCli, ...args], { cwd: root, env: suiteEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let current: { scenario: string; output: string } | undefined;
  let partial = "";
  const finishCurrent = (why: string) => {
    if (current && waiting.has(current.scenario)) settle(current.scenario, { checks: [], output: `${current.output}\n(${why})` });
    current = undefined;
  };
  const onLine = (line: string) => {
    const started = /^=== Running scenario: (\S+) ===$/.exec(line);
    if (started) {
      finishCurrent("the suite went on to the next scenario without saving this one's results");
      current = { scenario: started[1]!, output: "" };
      return;
    }
    if (!current) return;
    current.output += `${line}\n`;
    const saved = /^Results saved to (.+)$/.exec(line);
    if (saved) {
      const checks = JSON.parse(readFileSync(join(saved[1]!, "checks.json"), "utf8")) as Check[];
      settle(current.scenario, { checks, output: current.output });
      current = undefined;
    }
  };
  const onData = (chunk: Buffer) => {
    const text = plain(chunk.toString());
    all += text;
    const lines = (partial + text).split("\n");
    partial = lines.pop()!;
    for (const line of lines) onLine(line);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", (chunk: Buffer) => (all += plain(chunk.toString())));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const done = new Promise<void>((resolveDone) => {
    const end = (why: string) => {
      clearTimeout(timer);
      if (partial) onLine(partial);
      finishCurrent(why);
      ended = why;
      for (const scenario of [...waiting.keys()]) settle(scenario, { checks: [], output: `${all}\n(the suite never ran ${scenario}: ${why})` });
      resolveDone();
    };
    child.on("error", (error) => end(`it could not start: ${error.message}`));
    child.on("close", (code, signal) => end(`it ended with ${signal ?? `code ${code}`}`));
  });
  return {
    result: promiseFor,
    /** Lets the run end (it prints its summary after the last scenario), or ends it after 10 s. */
    async close() {
      const grace = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await done;
      clearTimeout(grace);
    },
  };
}
