// `npm run serve` as a real process: it prints the link, guards the listener, and on SIGINT
// cancels questions, stops its MCP children and exits 0.
import { describe, it, expect } from "vitest";
import { spawn, execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtemp, writeFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isAlive, waitForExit } from "../fixtures";

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));

function descendants(pid: number): number[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of rows) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

const alive = isAlive;

describe("serve.ts", () => {
  it("prints a token link, refuses tokenless requests, and exits cleanly on SIGINT", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tnc-serve-"));
    const config = join(dir, "mcp.json");
    await writeFile(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }));
    const child = spawn(process.execPath, ["--import", "tsx", "src/main/serve.ts", "--config", config, "--port", "0"], {
      cwd: root,
      env: { ...process.env, XDG_CONFIG_HOME: dir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    try {
      const link = await new Promise<string>((resolveLink, reject) => {
        const timer = setTimeout(() => reject(new Error(`no link printed; stderr: ${stderr}`)), 45_000);
        child.stdout.on("data", () => {
          const match = /Toolnexus Companion is running: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(stdout);
          if (match) {
            clearTimeout(timer);
            resolveLink(match[1]);
          }
        });
      });
      const url = new URL(link);
      // The page is up before the servers: the server connects in the background and says so.
      await expect.poll(() => stderr, { timeout: 30_000 }).toMatch(/server everything: connected \(\d+ tools\)/);

      // The link trades its token for the cookie; without it, everything is refused.
      const signIn = await fetch(link, { redirect: "manual" });
      expect(signIn.status).toBe(303);
      expect((await fetch(`${url.origin}/`)).status).toBe(401);
      const gateway = await fetch(`${url.origin}/mcp`, { method: "POST", body: "{}" });
      expect(gateway.status).toBe(401);

      const kids = descendants(child.pid!);
      expect(kids.length).toBeGreaterThan(0);
      child.kill("SIGINT");
      expect(await exited).toBe(0);
      // Every process serve started (the stdio server included) is gone.
      await Promise.all(kids.map((pid) => waitForExit(pid, 3000)));
      expect(kids.filter(alive)).toEqual([]);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a bad --port with a clear message", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main/serve.ts", "--port", "http"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(code).toBe(1);
    expect(stderr).toContain("--port must be a port number");
  });
});
