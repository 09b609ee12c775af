// The official MCP conformance suite's server scenario `dns-rebinding-protection`, run against the
// real gateway on the real listener. The suite needs Node 22 (this machine runs 20); the binary
// comes from npm through the same helper the client scenarios use.
//
// The scenario sends no Authorization header and its CLI cannot add one, while the gateway refuses
// every tokenless request (which would fail the "valid localhost request is accepted" check for
// the wrong reason). So a loopback proxy in front adds the bearer token and passes everything
// else — Host and Origin included — through untouched: the gateway's own guard is what is tested.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../fixtures";
import { ensureNode22 } from "../conformance/node22";
import { startCompanion, type Companion } from "./gateway-harness";

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

let companion: Companion;
let proxy: Server;
let proxyUrl: string;
let node22: string;

beforeAll(async () => {
  // A missing Node 22 fails the suite with the reason; conformance is not optional.
  node22 = await ensureNode22(repoRoot);
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
  it("passes against the gateway", async () => {
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
