// The gateway's wrong-token refusal as two standard clients from npm meet it: the real companion
// (core + startCompanionServer) and the real `mcp-remote` and Inspector CLI as child processes,
// each run with no token and with a wrong one. Every request on the listener is recorded
// (diagnostics_channel), so "no registration attempt" is counted, not assumed.
//
// What each client can show, and why:
// - Inspector CLI (@modelcontextprotocol/inspector-cli 1.0.3, the v1 CLI): no OAuth; it prints
//   the 401's JSON-RPC body, so the body's message says where the token is.
//   Not run here: Inspector v2 (@modelcontextprotocol/inspector 2.12.0, `--cli`) needs Node >= 22.19
//   and brings ~110 MB. Checked by hand against this gateway: without a TTY it stops before any
//   discovery with its own "Interactive OAuth requires a TTY ... use --stored-auth-only" (it parses
//   error_description but asserts the TTY first); with --stored-auth-only it prints this body (the
//   explanation); with a TTY it stops at the 501 like mcp-remote. No registration in any case.
// - mcp-remote 0.15.1: treats every 401 as an OAuth challenge (its bundled SDK calls auth() on any
//   401 and never reads error_description, and drops the bodies of discovery answers). The best it
//   can show is where it stopped: "HTTP 501 trying to load OAuth metadata from
//   <listener>/.well-known/oauth-authorization-server". That URL, opened, answers the explanation.
//   A 4xx there would make it go on to POST /register; the 501 stops it.
import { spawn } from "node:child_process";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../src/main/app/core";
import { startCompanionServer, type CompanionServer } from "../../src/main/app/companion-server";
import { browserPlatform } from "../../src/main/app/serve";

const require = createRequire(import.meta.url);
const mcpRemote = join(dirname(require.resolve("mcp-remote/package.json")), "dist", "proxy.js");
const inspectorDir = join(dirname(require.resolve("@modelcontextprotocol/inspector-cli/package.json")), "build");

// Where the companion's explanation says the token is (TOKEN_HELP in src/main/gateway/token-refusal.ts).
const WHERE_THE_TOKEN_IS = /Copy the current one from the companion's Settings \(or run `toolnexus-companion token`\)/;

let core: Core;
let server: CompanionServer;
let seen: Array<{ method: string; path: string }> = [];
const homes: string[] = [];

function onRequest(message: unknown): void {
  const req = (message as { request: IncomingMessage }).request;
  if (req.socket.localPort !== server?.port) return;
  seen.push({ method: req.method ?? "", path: new URL(req.url ?? "/", "http://127.0.0.1").pathname });
}

beforeAll(async () => {
  subscribe("http.server.request.start", onRequest);
  core = await createCore({ config: { mcpServers: {} }, platform: browserPlatform });
  server = await startCompanionServer(core, { port: 0, staticDir: mkdtempSync(join(tmpdir(), "tnc-static-")) });
});
afterAll(async () => {
  unsubscribe("http.server.request.start", onRequest);
  await core?.close();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});
beforeEach(() => {
  seen = [];
});

interface Run {
  code: number | null;
  output: string;
  timedOut: boolean;
}

/** Runs a client in its own process group with a hard timeout; the whole group is killed at the end. */
function runClient(args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    let timedOut = false;
    const killGroup = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs ?? 30_000);
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      killGroup();
      resolve({ code, output, timedOut });
    });
  });
}

/** A private HOME and a BROWSER that only records being called, so nothing leaks or opens. */
function sandbox(): { env: Record<string, string>; browserCalls: string } {
  const home = mkdtempSync(join(tmpdir(), "tnc-client-home-"));
  homes.push(home);
  const browserCalls = join(home, "browser-was-called");
  const browser = join(home, "browser");
  writeFileSync(browser, `#!/bin/sh\necho "$@" >> '${browserCalls}'\nexit 1\n`);
  chmodSync(browser, 0o755);
  return {
    env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), MCP_REMOTE_CONFIG_DIR: join(home, "mcp-remote"), BROWSER: browser, DISPLAY: "" },
    browserCalls,
  };
}

function noRegistrationAttempt(): void {
  expect(seen.filter((r) => /regist/i.test(r.path)), JSON.stringify(seen)).toEqual([]);
  expect(seen.filter((r) => r.method !== "GET" && r.method !== "HEAD" && r.path !== "/mcp"), JSON.stringify(seen)).toEqual([]);
}

const CASES = [
  { name: "no token", header: [] as string[] },
  { name: "a wrong token", header: ["Authorization: Bearer rotated-long-ago"] },
];

describe("the Inspector CLI against the gateway", () => {
  for (const { name, header } of CASES) {
    it(`with ${name}: prints the refusal with where the token is, and never starts OAuth`, async () => {
      const box = sandbox();
      const headerArgs = header.flatMap((h) => ["--header", h]);
      // The CLI imports "../package.json" when that exists relative to its working directory
      // (its build/ folder), else "../../package.json": it must run from its own build folder.
      const run = await runClient([join(inspectorDir, "index.js"), `${server.url}/mcp`, "--transport", "http", "--method", "tools/list", ...headerArgs], {
        cwd: inspectorDir,
        env: box.env,
      });
      expect(run.timedOut, run.output).toBe(false);
      expect(run.code, run.output).toBe(1);
      expect(run.output).toMatch(/Failed to connect to MCP server/);
      expect(run.output).toMatch(header.length ? /the bearer token is wrong/ : /missing token/);
      expect(run.output).toMatch(WHERE_THE_TOKEN_IS);
      expect(seen.map((r) => `${r.method} ${r.path}`)).toContain("POST /mcp");
      expect(seen.filter((r) => r.path.startsWith("/.well-known"))).toEqual([]);
      noRegistrationAttempt();
      expect(existsSync(box.browserCalls)).toBe(false);
    }, 40_000);
  }
});

describe("mcp-remote against the gateway", () => {
  for (const { name, header } of CASES) {
    it(`with ${name}: stops at OAuth discovery with a URL that explains, registers nothing, opens no browser`, async () => {
      const box = sandbox();
      const headerArgs = header.flatMap((h) => ["--header", h]);
      const run = await runClient([mcpRemote, `${server.url}/mcp`, ...headerArgs], { env: box.env });
      expect(run.timedOut, run.output).toBe(false);
      expect(run.code, run.output).toBe(1);
      const stopped = run.output.match(/Fatal error: Error: HTTP 501 trying to load OAuth metadata from (\S+)/);
      expect(stopped, run.output).not.toBeNull();
      expect(run.output).not.toMatch(/Authentication required\. Waiting for authorization/);
      // The URL it names answers the explanation: what a person who opens it reads.
      const named = stopped![1]!;
      expect(named.startsWith(`${server.url}/.well-known/`)).toBe(true);
      const answer = await fetch(named);
      expect(answer.status).toBe(501);
      expect(((await answer.json()) as { error: string; error_description: string }).error_description).toMatch(WHERE_THE_TOKEN_IS);
      // It did meet the standard challenge on /mcp before that.
      expect(seen.some((r) => r.path === "/mcp")).toBe(true);
      noRegistrationAttempt();
      expect(existsSync(box.browserCalls)).toBe(false);
    }, 40_000);
  }
});
