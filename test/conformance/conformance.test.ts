// The official MCP conformance suite (@modelcontextprotocol/conformance) run against our client:
// the suite starts each scenario's server, spawns test/conformance/client.ts (loadMcp + Inbox +
// a scripted person) with the server URL, and grades what the server saw.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureNode22 } from "./node22";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);
const conformanceCli = join(dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist", "index.js");
const tsxCli = join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
const runner = join(root, "test", "conformance", "client.ts");

// The client runs on this Node (20); only the suite itself needs Node 22.
// The suite splits --command on spaces, so none of these paths may contain one.
const clientCommand = [process.execPath, tsxCli, runner].join(" ");

const SCENARIOS = ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"];

let node22: string | undefined;
let setupError: Error | undefined;

beforeAll(async () => {
  try {
    node22 = await ensureNode22(root);
  } catch (error) {
    setupError = error as Error;
  }
}, 300_000);

interface CliResult {
  code: number | null;
  output: string;
}

function runScenario(node: string, scenario: string): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node, [conformanceCli, "client", "--command", clientCommand, "--scenario", scenario, "--timeout", "45000"], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, output }));
  });
}

describe("MCP conformance suite, client scenarios", () => {
  for (const scenario of SCENARIOS) {
    it(
      scenario,
      async () => {
        if (setupError || !node22) {
          throw new Error(`Cannot run the conformance suite: ${setupError?.message ?? "no Node 22 binary"}`);
        }
        const spaced = [process.execPath, tsxCli, runner].filter((path) => path.includes(" "));
        expect(spaced, "the suite splits --command on spaces; these paths contain one").toEqual([]);
        const result = await runScenario(node22, scenario);
        // Strip ANSI colours so the failure message reads cleanly.
        const text = result.output.replace(/\x1B\[[0-9;]*m/g, "");
        expect(text, text).toContain("OVERALL: PASSED");
        expect(result.code, text).toBe(0);
      },
      90_000,
    );
  }
});
