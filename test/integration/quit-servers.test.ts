// Quitting tells every server (issue 7, class 7): with a question open, core.close() delivers the
// question's `cancel` to the server that asked and ends a streamable HTTP session with its
// DELETE, within QUIT_GRACE_MS and before the transport closes. The servers are real processes
// (hostile-quit.mjs) that record what they received.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../src/main/app/core";
import { QUIT_GRACE_MS } from "../../src/shared/limits";
import { browserPlatform } from "../../src/main/app/serve";
import { fixture, fixtureCommand } from "../fixtures";
import { until } from "../helpers/poll";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function startHttpRecorder(): Promise<{ url: string; lines: string[]; child: ChildProcess }> {
  const child = spawn(process.execPath, [fixture("hostile-quit"), "--http", "--port", "0"], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  cleanups.push(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // gone
    }
  });
  const lines: string[] = [];
  let buffer = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      buffer += String(chunk);
      const parts = buffer.split("\n");
      buffer = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const match = /^LISTENING (\S+)$/.exec(line);
        if (match) resolve({ url: match[1], lines, child });
      }
    });
    child.once("exit", (code) => reject(new Error(`hostile-quit exited (${code})`)));
  });
}

/** Runs `tool` through the page's handler and waits until its question is pending. */
async function openQuestion(core: Core, tool: string): Promise<{ run: Promise<unknown> }> {
  const run = core.handlers["tools:run"]({ tool, args: {} });
  run.catch(() => undefined);
  await until(() => (core.internals.inbox.list().length === 1 ? true : undefined), 10_000);
  return { run };
}

describe("quitting with a question open", () => {
  it("a streamable HTTP server hears its cancel and its session DELETE before the transport closes", async () => {
    const server = await startHttpRecorder();
    const core = await createCore({ config: { mcpServers: { remote: { type: "http", url: server.url } } }, platform: browserPlatform });
    cleanups.push(() => core.close());
    expect(core.internals.source.servers()[0]).toMatchObject({ state: "connected", transport: "streamable-http" });
    await openQuestion(core, "remote_ask");

    const started = Date.now();
    await core.close();
    const took = Date.now() - started;

    expect(took).toBeLessThan(QUIT_GRACE_MS + 1000);
    // Both were received before close() returned: the server logs as it handles each request.
    await until(() => (server.lines.some((l) => l.startsWith("DELETE ")) ? true : undefined), 2000);
    const result = server.lines.findIndex((l) => l === "RESULT cancel");
    const deleted = server.lines.findIndex((l) => /^DELETE [0-9a-f-]{36}$/.test(l));
    expect(result).toBeGreaterThan(0);
    expect(deleted).toBeGreaterThan(result);
  });

  it("a stdio server has its cancel written before its process group is killed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "quit-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, "record.txt");
    const core = await createCore({ config: { mcpServers: { local: fixtureCommand("hostile-quit", ["--record", file]) } }, platform: browserPlatform });
    cleanups.push(() => core.close());
    await openQuestion(core, "local_ask");
    await core.close();
    const recorded = await until(async () => {
      const text = await readFile(file, "utf8").catch(() => "");
      return text.includes("RESULT") ? text : undefined;
    }, 3000);
    expect(recorded.trim()).toBe("RESULT cancel");
  });
});
