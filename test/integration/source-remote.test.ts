// Remote specifics: the SSE fallback for servers that predate streamable HTTP, header expansion,
// and aborting a load.
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { loadMcp, type McpSource } from "../../src/main/mcp/source";
import { everythingEntry, fixtureCommand, freePort, waitForExit } from "../fixtures";
import { scriptedPerson } from "../helpers/person";
import { outputOf } from "../helpers/tool-output";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startEverythingSse(): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingEntry, "sse"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"], detached: true });
  cleanups.push(async () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // gone
    }
    await waitForExit(child.pid!);
  });
  await new Promise<void>((resolve, reject) => {
    let err = "";
    child.stderr!.on("data", (d) => {
      err += String(d);
      if (err.includes("running on port")) resolve();
    });
    child.once("exit", () => reject(new Error(`server-everything sse exited: ${err}`)));
  });
  return `http://127.0.0.1:${port}/sse`;
}

describe("remote servers", () => {
  it("falls back to SSE when streamable HTTP is refused, and elicitation still works", async () => {
    const url = await startEverythingSse();
    const person = scriptedPerson(() => ({ ok: false, reason: "declined" }));
    const logs: string[] = [];
    const source: McpSource = await loadMcp({ servers: { old: { url, headers: { "X-Test": "${SSE_TEST_VALUE}" } } } }, {
      waitFor: person.waitFor,
      env: { SSE_TEST_VALUE: "header-value-that-must-not-be-logged" },
      log: (l) => logs.push(l),
    });
    cleanups.push(() => source.close());
    expect(source.servers()[0]).toMatchObject({ state: "connected", transport: "sse" });
    expect(logs.join("\n")).toMatch(/trying SSE/);
    expect(logs.join("\n")).not.toContain("header-value-that-must-not-be-logged");
    const result = await outputOf(source.tools.find((t) => t.name === "old_trigger-elicitation-request")!.execute({}));
    expect(result.output).toContain('"action": "decline"');
  });

  it("a header naming an unset variable fails that server with the variable's name only", async () => {
    const source = await loadMcp({ mcpServers: { r: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer ${NOT_SET_ANYWHERE}" } } } }, { env: {} });
    cleanups.push(() => source.close());
    expect(source.servers()[0]).toMatchObject({ state: "failed", error: expect.stringContaining("NOT_SET_ANYWHERE") });
  });

  it("an unreachable remote server fails without hanging", async () => {
    const port = await freePort();
    const source = await loadMcp({ mcpServers: { gone: { url: `http://127.0.0.1:${port}/mcp`, timeout: 2000 } } });
    cleanups.push(() => source.close());
    expect(source.status).toEqual({ gone: "failed" });
  });

  it("aborting a load rejects it and leaves no child behind", async () => {
    const controller = new AbortController();
    const loading = loadMcp({ mcpServers: { hung: { ...fixtureCommand("never-initialize"), timeout: 60_000 } } }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the app is quitting")), 300);
    await expect(loading).rejects.toThrow("the app is quitting");
  });
});

describe("startMcp", () => {
  it("returns at once with servers connecting, then reports each one's outcome", async () => {
    const { startMcp } = await import("../../src/main/mcp/source");
    const started = Date.now();
    const { source, ready } = startMcp({
      mcpServers: { hung: { ...fixtureCommand("never-initialize"), timeout: 1500 }, fine: fixtureCommand("crash-mid-question"), off: { command: "x", enabled: false } },
    });
    cleanups.push(() => source.close());
    expect(Date.now() - started).toBeLessThan(500);
    expect(source.status).toEqual({ hung: "connecting", fine: "connecting", off: "disabled" });
    const seen: string[] = [];
    source.on((event) => {
      if (event.type === "status") seen.push(`${event.status.name}:${event.status.state}`);
    });
    await ready;
    expect(source.status).toEqual({ hung: "failed", fine: "connected", off: "disabled" });
    expect(seen).toEqual(expect.arrayContaining(["fine:connected", "hung:failed"]));
    expect(source.tools.map((t) => t.server)).toContain("fine");
  });
});
