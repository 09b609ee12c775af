// Agent: the official MCP Inspector's CLI (@modelcontextprotocol/inspector-cli), one process per
// op as people run it (`mcp-inspector-cli <url|command> --method ...`). It declares no client
// capabilities, so nothing of elicitation, sampling or roots, and prints only the final result.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { serve } from "./protocol.mjs";

const cli = join(dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/package.json")), "build", "index.js");
let target;

function run(args) {
  const where = target.url
    ? [target.url, "--transport", "http", ...Object.entries(target.headers ?? {}).flatMap(([k, v]) => ["--header", `${k}: ${v}`])]
    : [target.command, ...target.args, "--transport", "stdio"];
  return new Promise((resolve, reject) => {
    // cwd: the CLI checks for "../package.json" relative to the working directory but imports it
    // relative to its own file; run anywhere else, it fails (1.0.3).
    execFile(process.execPath, [cli, ...where, ...args], { cwd: dirname(cli), env: { ...process.env, ...target.env }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${stderr.trim() || stdout.trim() || error.message}`));
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`not JSON: ${stdout.slice(0, 500)}`));
      }
    });
  });
}

const pairs = (flag, values) => Object.entries(values ?? {}).flatMap(([k, v]) => [flag, `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`]);

serve({
  // Every op is a connection of its own; connect only says where to.
  async connect(request) {
    target = request.target;
    return {};
  },
  listTools: async () => (await run(["--method", "tools/list"])).tools,
  callTool: async ({ name, arguments: args }) => run(["--method", "tools/call", "--tool-name", name, ...pairs("--tool-arg", args)]),
  listResources: async () => (await run(["--method", "resources/list"])).resources,
  readResource: async ({ uri }) => run(["--method", "resources/read", "--uri", uri]),
  listPrompts: async () => (await run(["--method", "prompts/list"])).prompts,
  getPrompt: async ({ name, arguments: args }) => run(["--method", "prompts/get", "--prompt-name", name, ...pairs("--prompt-args", args)]),
});
