// The companion's port held by another process. The companion (browser mode, as `npm run serve`
// runs it) must refuse to start, say which process holds the port and how to pick another, and
// start no MCP server first: the configured server is a fixture that writes a marker file the
// moment it is spawned, and no marker may appear.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../../fixtures";

let holder: ChildProcess;
let heldPort: number;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tnc-port-taken-"));
  // A process of another kind than the companion holding the port.
  holder = spawn(process.execPath, ["-e", "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port));setInterval(()=>{},1e9)"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  heldPort = await new Promise<number>((resolve) => holder.stdout!.once("data", (d: Buffer) => resolve(Number(String(d).trim()))));
});
afterAll(() => {
  holder?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function serve(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main/app/serve.ts", ...args], {
      cwd: repoRoot,
      // Nothing of the person's own: data folder, history, rules and keychain all elsewhere.
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, "data"), XDG_CONFIG_HOME: join(dir, "config"), DBUS_SESSION_BUS_ADDRESS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("the companion's port is held by another process", () => {
  it("fails to start, names the holder and --port, and starts no MCP server", async () => {
    const marker = join(dir, "server-started");
    const config = join(dir, "mcp.json");
    // A shell writes the marker within a millisecond of being spawned, long before a companion
    // that started its servers first could stop it again.
    writeFileSync(config, JSON.stringify({ mcpServers: { marker: { command: "/bin/sh", args: ["-c", 'echo started > "$0"; exec sleep 30', marker] } } }));
    const result = await serve(["--config", config, "--port", String(heldPort)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`Port ${heldPort} on 127.0.0.1 is in use, held by node (pid ${holder.pid}); stop that or pick another port with --port.`);
    expect(existsSync(marker)).toBe(false);
    expect(result.stderr).not.toMatch(/server marker/);
  }, 40_000);
});
