// `npm run serve` as a real process: the bundle it runs (scripts/build-serve.mjs) prints the link,
// guards the listener, and on SIGINT cancels questions, stops its MCP children and exits 0. And
// the npm script itself runs that bundle under plain node, args passed through, no wrapper.
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { spawn, execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { readFileSync, rmSync } from "node:fs";
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

// This file's own copy of the bundle, directly under out/ (see scripts/build-serve.mjs), so it
// never races `npm run serve` or another test file rebuilding out/serve.
const bundle = join(root, "out", `serve-http-${process.pid}`, "serve.js");
beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-serve.mjs"], { cwd: root, env: { ...process.env, SERVE_OUT: join(bundle, "..") }, stdio: "pipe" });
}, 60_000);
afterAll(() => rmSync(join(bundle, ".."), { recursive: true, force: true }));

/** Resolves with the page link once serve prints it. */
function linkOf(child: ReturnType<typeof spawn>, stderr: () => string): Promise<string> {
  let stdout = "";
  return new Promise<string>((resolveLink, reject) => {
    const timer = setTimeout(() => reject(new Error(`no link printed; stderr: ${stderr()}`)), 45_000);
    child.stdout!.on("data", (d) => {
      stdout += d;
      const match = /Toolnexus Companion is running: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolveLink(match[1]);
      }
    });
  });
}

describe("serve.ts", () => {
  it("prints a token link, refuses tokenless requests, and exits cleanly on SIGINT", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tnc-serve-"));
    const config = join(dir, "mcp.json");
    await writeFile(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }));
    const child = spawn(process.execPath, [bundle, "--config", config, "--port", "0"], {
      cwd: root,
      env: { ...process.env, XDG_CONFIG_HOME: dir, TOOLNEXUS_STATE_DIR: join(dir, "state") },
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
    const child = spawn(process.execPath, [bundle, "--port", "http"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(code).toBe(1);
    expect(stderr).toContain("--port must be a port number");
  });

  it("takes the config from TOOLNEXUS_CONFIG when there is no --config, and --config wins over it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tnc-serve-env-"));
    try {
      const fromEnv = join(dir, "env.json");
      const fromFlag = join(dir, "flag.json");
      for (const file of [fromEnv, fromFlag]) await writeFile(file, JSON.stringify({ mcpServers: {} }));
      const configSeen = async (args: string[]) => {
        const child = spawn(process.execPath, [bundle, ...args, "--port", "0"], {
          cwd: root,
          env: { ...process.env, XDG_CONFIG_HOME: dir, TOOLNEXUS_STATE_DIR: join(dir, "state"), TOOLNEXUS_CONFIG: fromEnv },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stderr = "";
        child.stderr!.on("data", (d) => (stderr += d));
        const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
        await linkOf(child, () => stderr);
        child.kill("SIGTERM");
        expect(await exited).toBe(0);
        return /^config: (.*)$/m.exec(stderr)?.[1];
      };
      expect(await configSeen([])).toBe(fromEnv);
      expect(await configSeen(["--config", fromFlag])).toBe(fromFlag);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("npm run serve's command runs the bundle under plain node with exec: args pass through, no wrapper stays", async () => {
    const script = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.serve;
    // The renderer build is the tests' setup already (scripts/test.sh); run the rest as npm would:
    // `sh -c '<script> <args…>'`. (It rebuilds out/serve, as `npm run serve` does.)
    const prefix = "vite build --logLevel warn && ";
    expect(script.startsWith(prefix)).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), "tnc-serve-npm-"));
    const config = join(dir, "mcp.json");
    await writeFile(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }));
    const sh = spawn("/bin/sh", ["-c", `${script.slice(prefix.length)} --config '${config}' --port 0`], {
      cwd: root,
      env: { ...process.env, XDG_CONFIG_HOME: dir, TOOLNEXUS_STATE_DIR: join(dir, "state") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    sh.stderr!.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => sh.on("exit", (code) => r(code)));
    try {
      await linkOf(sh, () => stderr);
      expect(stderr).toContain(`config: ${config}`);
      // exec replaced sh: the process npm would wait on IS the companion, plain node on the bundle.
      const argv = readFileSync(`/proc/${sh.pid}/cmdline`, "utf8").split("\0");
      expect(argv.slice(0, 2)).toEqual(["node", "out/serve/serve.js"]);
      expect(argv).not.toContain("tsx");
      await expect.poll(() => stderr, { timeout: 30_000 }).toMatch(/server everything: connected/);
      const kids = descendants(sh.pid!);
      sh.kill("SIGINT");
      expect(await exited).toBe(0);
      await Promise.all(kids.map((pid) => waitForExit(pid, 3000)));
      expect(kids.filter(alive)).toEqual([]);
    } finally {
      if (sh.exitCode === null) sh.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  });
});
