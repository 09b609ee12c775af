// Builds the real Electron bundle with scripts/build-electron.mjs and runs out/main/index.js in
// plain Node with only `electron` (and `keytar`) stubbed: the real core starts (no servers), the
// real loopback listener binds a free port, IPC is registered, and Quit closes it all and exits.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// Inside the repo so the ESM bundle gets package.json's "type": "module" and node_modules.
const work = path.join(root, ".tmp", `bundle-smoke-${process.pid}`);
const out = path.join(work, "out");
const stubs = path.join(root, "test/e2e/bundle-stubs/register-stubs.mjs");

function lines(stdout: string): Map<string, unknown[]> {
  const seen = new Map<string, unknown[]>();
  for (const line of stdout.split("\n")) {
    const match = /^stub:(\S+) (.*)$/.exec(line);
    if (!match) continue;
    if (!seen.has(match[1])) seen.set(match[1], []);
    seen.get(match[1])!.push(JSON.parse(match[2]));
  }
  return seen;
}

async function launch(env: Record<string, string>) {
  try {
    const result = await run(process.execPath, ["--import", stubs, path.join(out, "main/index.js"), "--config", path.join(work, "mcp.json"), "--port", "0"], {
      cwd: work,
      env: { ...process.env, ...env },
      timeout: 30_000,
    });
    return { code: 0, ...result };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

beforeAll(async () => {
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, "mcp.json"), JSON.stringify({ mcpServers: {} }));
  await run(process.execPath, [path.join(root, "scripts/build-electron.mjs")], { env: { ...process.env, COMPANION_OUT: out }, timeout: 60_000 });
}, 90_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the bundled main process", () => {
  it("writes an ESM main and a CommonJS preload that only requires electron", () => {
    const preload = readFileSync(path.join(out, "preload/index.cjs"), "utf8");
    expect([...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual(["electron"]);
    expect(preload).toContain('exposeInMainWorld("companion"');
    const main = readFileSync(path.join(out, "main/index.js"), "utf8");
    expect(main).toMatch(/^import /);
    expect(main).toMatch(/from "electron"/);
    expect(readFileSync(path.join(out, "assets/tray-light.png")).subarray(1, 4).toString()).toBe("PNG");
  });

  it("starts, serves our page only, and quits by closing the core first", async () => {
    const result = await launch({ STUB_LOCK: "1" });
    const seen = lines(result.stdout);
    expect(result.stderr).toBe("");
    expect(seen.get("schemes")).toEqual([["companion"]]);
    // The keychain is read in a utility process running the built helper, which loads keytar.
    expect(seen.get("utility-fork")).toEqual([{ entry: "main/keychain-helper.cjs", args: ["keytar"], serviceName: "Toolnexus Companion keychain" }]);
    expect(seen.get("window")?.[0]).toEqual({ sandbox: true, contextIsolation: true, preload: "preload/index.cjs" });
    expect(seen.get("load")).toEqual(["companion://app/index.html"]);
    expect(seen.get("tray")).toEqual(["assets/tray-light.png"]);
    expect(seen.get("tooltip")?.[0]).toBe("Toolnexus Companion — nothing waiting");
    expect(seen.get("ipc-ours")?.[0]).toMatchObject({ ok: true, value: expect.any(Array) });
    expect(seen.get("ipc-stranger")?.[0]).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(seen.get("ipc-bad-arg")?.[0]).toMatchObject({ ok: false, error: { code: "invalid-argument" } });
    expect(seen.get("page")?.[0]).toEqual({ status: 404, csp: true });
    expect(seen.get("before-quit-prevented")).toEqual([true]);
    expect(seen.get("tray-destroyed")).toHaveLength(1);
    expect(seen.get("exit")).toEqual([0]);
    expect(result.stdout).toMatch(/gateway: agents reach the companion at http:\/\/127\.0\.0\.1:\d+\/mcp/);
    expect(result.code).toBe(0);
  });

  it("a second instance quits without starting anything", async () => {
    const result = await launch({ STUB_LOCK: "0" });
    const seen = lines(result.stdout);
    expect(seen.get("lock")).toEqual([false]);
    expect(seen.get("quit")).toHaveLength(1);
    expect(seen.has("window")).toBe(false);
    expect(seen.has("tray")).toBe(false);
    expect(result.code).toBe(0);
  });
});
