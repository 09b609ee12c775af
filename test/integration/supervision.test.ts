// Servers kept running, against real processes: a stdio server that exits is restarted with
// backoff and its question withdrawn; one that never starts ends in `crash-loop`; a remote server
// that goes away and comes back is reconnected; edits to the watched config apply live, touching
// only the servers they change; a broken edit keeps the last good state and says where it broke.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startMcp } from "../../src/main/mcp/source";
import { CONFIG_ERROR_ENTRY, createCore } from "../../src/main/app/core";
import { browserPlatform } from "../../src/main/app/serve";
import { superviseSource, type Supervisor } from "../../src/main/mcp/supervisor";
import type { RuntimeSource } from "../../src/main/mcp/supervision";
import { demoServer, DEMO_SERVER_NAME, firstRunInfo } from "../../src/main/mcp/config/first-run";
import type { InboxEvent, ServerStatus } from "../../src/shared/types";
import { fixture, fixtureCommand, freePort, isAlive, waitForExit } from "../fixtures";
import { scriptedPerson } from "../helpers/person";
import { until } from "../helpers/poll";
import { outputOf } from "../helpers/tool-output";

let dir: string;
const cleanup: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "supervision-"));
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const FAST = { initialMs: 100, maxMs: 400, stableMs: 60_000, crashLoopFailures: 4, windowMs: 60_000 };

function start(config: unknown, options: Parameters<typeof superviseSource>[1] = {}, waitFor?: ReturnType<typeof scriptedPerson>["waitFor"]) {
  const logs: string[] = [];
  const { source, ready } = startMcp(config, { waitFor, log: (l) => logs.push(l) });
  const runtime = source as RuntimeSource;
  const supervisor = superviseSource(runtime, { backoff: FAST, log: (l) => logs.push(l), ...options });
  cleanup.push(() => source.close(), () => supervisor.close());
  return { source: runtime, ready, supervisor, logs };
}

const statusOf = (source: RuntimeSource, name: string): ServerStatus => {
  const found = source.servers().find((s) => s.name === name);
  if (!found) throw new Error(`no server ${name}: ${JSON.stringify(source.servers())}`);
  return found;
};

async function pidOf(source: RuntimeSource, server: string): Promise<number> {
  const tool = source.tools.find((t) => t.name === `${server}_pid`);
  if (!tool) throw new Error(`no ${server}_pid tool; have ${source.tools.map((t) => t.name).join(", ")}`);
  return Number((await outputOf(tool.execute({}))).output);
}

describe("a stdio server that exits", () => {
  it("is restarted with backoff; its question is withdrawn, not carried over", async () => {
    const person = scriptedPerson();
    const withdrawn: InboxEvent[] = [];
    person.inbox.on((e) => e.type === "withdrawn" && withdrawn.push(e));
    const seen: ServerStatus[] = [];
    const { source, ready } = start({ mcpServers: { flaky: fixtureCommand("flaky-stdio") } }, {}, person.waitFor);
    source.on((e) => e.type === "status" && seen.push(e.status));
    await ready;
    const firstPid = await pidOf(source, "flaky");
    const call = source.tools.find((t) => t.name === "flaky_ask_then_crash")!.execute({ afterMs: 300 });
    const question = await person.nextQuestion();
    await expect(call).rejects.toThrow();
    // The old process's question left the Inbox with the reason.
    await until(() => withdrawn.some((e) => e.type === "withdrawn" && e.id === question.request.id), 5000, "question withdrawn");
    expect(person.inbox.list()).toHaveLength(0);
    const restarting = seen.find((s) => s.state === "restarting");
    expect(restarting).toMatchObject({ name: "flaky", attempt: 1, error: expect.stringContaining("exited with code 3") });
    expect(restarting?.nextRetryAt).toBeGreaterThan(Date.now() - 5000);
    await until(() => statusOf(source, "flaky").state === "connected", 5000, "reconnected");
    const secondPid = await pidOf(source, "flaky");
    expect(secondPid).not.toBe(firstPid);
    expect(isAlive(firstPid)).toBe(false);
    // The new process has no question of the old one.
    expect(person.inbox.list()).toHaveLength(0);
    expect(statusOf(source, "flaky").attempt).toBeUndefined();
  });

  it("that fails its first starts waits longer each time, then runs", async () => {
    const state = join(dir, "starts");
    const times: number[] = [];
    const { source, ready } = start({ mcpServers: { flaky: fixtureCommand("flaky-stdio", ["--state", state, "--fail-first", "3"]) } });
    source.on((e) => e.type === "status" && e.status.state === "restarting" && e.status.nextRetryAt && times.push(e.status.nextRetryAt - Date.now()));
    await ready;
    await until(() => statusOf(source, "flaky").state === "connected", 10_000, "connected after failures");
    const starts = (await readFile(state, "utf8")).trim().split("\n");
    expect(starts).toHaveLength(4);
    // 100, 200, 400 ms (small scheduling slack).
    expect(times).toHaveLength(3);
    expect(times[0]).toBeLessThanOrEqual(100);
    expect(times[1]).toBeGreaterThan(120);
    expect(times[2]).toBeGreaterThan(250);
  });

  it("that never starts ends in crash-loop, and a retry by the person starts it again", async () => {
    const state = join(dir, "starts");
    const { source, ready, supervisor } = start({ mcpServers: { broken: fixtureCommand("flaky-stdio", ["--state", state, "--fail-first", "1000"]) } });
    await ready;
    await until(() => statusOf(source, "broken").state === "crash-loop", 10_000, "crash-loop");
    const status = statusOf(source, "broken");
    expect(status).toMatchObject({ attempt: 4, error: expect.stringContaining("4 failures") });
    const starts = (await readFile(state, "utf8")).trim().split("\n").length;
    // No more tries while in crash-loop.
    await new Promise((r) => setTimeout(r, 600));
    expect((await readFile(state, "utf8")).trim().split("\n").length).toBe(starts);
    await supervisor.restart("broken");
    expect((await readFile(state, "utf8")).trim().split("\n").length).toBe(starts + 1);
    await until(() => statusOf(source, "broken").state === "restarting", 5000, "restarting again after retry");
    expect(statusOf(source, "broken").attempt).toBe(1);
  });
});

describe("a remote server whose connection drops", () => {
  function runHttp(port: number): Promise<ChildProcess> {
    const child = spawn(process.execPath, [fixture("modern-elicit"), "--http", "--port", String(port)], { stdio: ["ignore", "pipe", "inherit"] });
    return new Promise((resolve, reject) => {
      child.stdout!.on("data", (chunk) => String(chunk).includes("LISTENING") && resolve(child));
      child.once("exit", (code) => reject(new Error(`http fixture exited ${code}`)));
    });
  }
  const stop = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null ? r() : (child.once("exit", () => r()), child.kill("SIGKILL"))));

  it("is reconnected once it answers again", async () => {
    const port = await freePort();
    let server = await runHttp(port);
    cleanup.push(() => stop(server));
    const { source, ready } = start({ mcpServers: { remote: { url: `http://127.0.0.1:${port}/mcp`, type: "streamable-http" } } }, {
      pingIntervalMs: 100,
      pingTimeoutMs: 500,
      // The fixture takes about a second to come back: many quick tries, no crash loop meanwhile.
      backoff: { ...FAST, crashLoopFailures: 100 },
    });
    await ready;
    expect(statusOf(source, "remote").state).toBe("connected");
    const seen: ServerStatus[] = [];
    source.on((e) => e.type === "status" && seen.push(e.status));
    await stop(server);
    await until(() => seen.some((s) => s.state === "restarting" && /dropped/.test(s.error ?? "")), 5000, "drop noticed");
    expect(source.tools.filter((t) => t.server === "remote")).toHaveLength(0);
    server = await runHttp(port);
    await until(() => statusOf(source, "remote").state === "connected", 10_000, "reconnected");
    expect(source.tools.some((t) => t.name === "remote_ask_region")).toBe(true);
  });
});

describe("the watched config", () => {
  const entry = (tag: string) => ({ ...fixtureCommand("flaky-stdio"), env: { TAG: tag } });

  it("applies added, removed and changed servers live; the untouched one keeps its connection and pid", async () => {
    const path = join(dir, "mcp.json");
    await writeFile(path, JSON.stringify({ mcpServers: { keep: entry("a"), change: entry("a"), drop: entry("a") } }));
    const { source, ready, supervisor } = start(JSON.parse(await readFile(path, "utf8")), { configPath: path, debounceMs: 50 });
    await ready;
    const keepConnection = source.connection("keep");
    const keepPid = await pidOf(source, "keep");
    const changePid = await pidOf(source, "change");
    const dropPid = await pidOf(source, "drop");

    // An editor's save: write beside, rename over.
    const next = `// edited\n${JSON.stringify({ mcpServers: { keep: entry("a"), change: entry("b"), add: entry("a") } }, null, 2)}`;
    await writeFile(`${path}.tmp`, next);
    const edited = Date.now();
    await rename(`${path}.tmp`, path);
    // Applied (the added server starting, the removed one gone) within two seconds of the save;
    // the new processes then take their own start-up time to connect.
    await until(() => source.servers().map((s) => s.name).sort().join() === "add,change,keep", 5000, "edit applied");
    expect(Date.now() - edited).toBeLessThan(2000);
    await until(() => source.servers().every((s) => s.state === "connected"), 5000, "edited servers connected");
    await supervisor.settled();
    expect(source.connection("keep")).toBe(keepConnection);
    expect(await pidOf(source, "keep")).toBe(keepPid);
    expect(await pidOf(source, "change")).not.toBe(changePid);
    await expect(waitForExit(changePid)).resolves.toBe(true);
    await expect(waitForExit(dropPid)).resolves.toBe(true);
    expect(isAlive(keepPid)).toBe(true);
  });

  it("a broken edit keeps the last good state and names the line and column", async () => {
    const path = join(dir, "mcp.json");
    await writeFile(path, JSON.stringify({ mcpServers: { keep: entry("a") } }));
    const errors: (string | undefined)[] = [];
    const { source, ready, supervisor, logs } = start(JSON.parse(await readFile(path, "utf8")), { configPath: path, debounceMs: 50, onConfigError: (e) => errors.push(e) });
    await ready;
    const keepPid = await pidOf(source, "keep");
    await writeFile(path, '{\n  "mcpServers": {\n    "keep": { "command": "x" \n    "other": 1\n  }\n}\n');
    await until(() => supervisor.configError() !== undefined, 5000, "error reported");
    expect(supervisor.configError()).toMatch(/line 4, column 5/);
    expect(errors[0]).toMatch(/line 4, column 5/);
    expect(logs.some((l) => /line 4, column 5.*keeping the servers/.test(l))).toBe(true);
    expect(statusOf(source, "keep").state).toBe("connected");
    expect(await pidOf(source, "keep")).toBe(keepPid);
    // Fixed: the error clears, nothing restarts.
    await writeFile(path, JSON.stringify({ mcpServers: { keep: entry("a") } }));
    await until(() => supervisor.configError() === undefined, 5000, "error cleared");
    expect(await pidOf(source, "keep")).toBe(keepPid);
  });
});

describe("core with a config file", () => {
  it("follows its edits and shows a broken one as the config entry, then clears it", async () => {
    const path = join(dir, "mcp.json");
    await writeFile(path, JSON.stringify({ mcpServers: { a: fixtureCommand("flaky-stdio") } }));
    const core = await createCore({ configPath: path, platform: browserPlatform });
    cleanup.push(() => core.close());
    expect(core.servers().map((v) => [v.name, v.state])).toEqual([["a", "connected"]]);
    let views = 0;
    core.events.on("servers:changed", () => views++);
    await writeFile(path, JSON.stringify({ mcpServers: { a: fixtureCommand("flaky-stdio"), b: fixtureCommand("flaky-stdio") } }));
    await until(() => core.servers().some((v) => v.name === "b" && v.state === "connected" && v.tools.length > 0), 5000, "b started");
    expect(views).toBeGreaterThan(0);
    await writeFile(path, '{ "mcpServers": { "a": 1 ');
    await until(() => core.servers()[0]?.name === CONFIG_ERROR_ENTRY, 5000, "config error shown");
    expect(core.servers()[0].error).toMatch(/line 1, column \d+/);
    expect(core.servers().filter((v) => v.state === "connected").map((v) => v.name)).toEqual(["a", "b"]);
    await writeFile(path, JSON.stringify({ mcpServers: { b: fixtureCommand("flaky-stdio") } }));
    await until(() => core.servers().map((v) => v.name).join() === "b", 5000, "error cleared, a removed");
  });
});

describe("the first run's demo server", () => {
  it("a first run is a config file that does not exist; an empty one is not", async () => {
    const path = join(dir, "toolnexus-companion", "mcp.json");
    await expect(firstRunInfo(path)).resolves.toEqual({ firstRun: true, configPath: path });
    await writeFile(join(dir, "empty.json"), "");
    await expect(firstRunInfo(join(dir, "empty.json"))).resolves.toMatchObject({ firstRun: false });
  });

  it("trying it writes no config, and a config server named demo takes its place", async () => {
    const path = join(dir, "mcp.json");
    const { source, ready, supervisor } = start({}, { configPath: path, debounceMs: 50 });
    await ready;
    await supervisor.startExtra(demoServer());
    expect(statusOf(source, "demo").state).toBe("connected");
    await expect(firstRunInfo(path)).resolves.toMatchObject({ firstRun: true });
    // An unrelated edit leaves the demo running.
    await writeFile(path, JSON.stringify({ mcpServers: { other: fixtureCommand("flaky-stdio") } }));
    await until(() => source.servers().some((s) => s.name === "other" && s.state === "connected"), 5000, "other started");
    expect(statusOf(source, "demo").state).toBe("connected");
    await writeFile(path, JSON.stringify({ mcpServers: { other: fixtureCommand("flaky-stdio"), demo: fixtureCommand("flaky-stdio") } }));
    await until(() => source.tools.some((t) => t.name === "demo_pid"), 5000, "the config's demo replaced the shipped one");
    expect(source.tools.some((t) => t.name === "demo_ask_coffee_order")).toBe(false);
  });

  it("is marked session-only, Stop demo stops it for the session, and never stops the config's own demo", async () => {
    const path = join(dir, "mcp.json");
    const { source, ready, supervisor } = start({}, { configPath: path, debounceMs: 50 });
    await ready;
    await supervisor.startExtra(demoServer());
    expect(statusOf(source, "demo")).toMatchObject({ state: "connected", sessionOnly: true, target: { kind: "local", args: [expect.stringMatching(/demo-server\.mjs$/)] } });
    await expect(supervisor.stopExtra("demo")).resolves.toBe(true);
    expect(source.servers().some((s) => s.name === "demo")).toBe(false);
    expect(source.tools.some((t) => t.server === "demo")).toBe(false);
    await expect(supervisor.stopExtra("demo")).resolves.toBe(false);
    // A config server of that name is the person's: Stop demo leaves it alone.
    await writeFile(path, JSON.stringify({ mcpServers: { demo: fixtureCommand("flaky-stdio") } }));
    await until(() => source.servers().some((s) => s.name === "demo" && s.state === "connected"), 5000, "the config's demo started");
    expect(statusOf(source, "demo").sessionOnly).toBeUndefined();
    await expect(supervisor.stopExtra("demo")).resolves.toBe(false);
    expect(statusOf(source, "demo").state).toBe("connected");
  });

  it("asks a form question and a URL question through the Inbox", async () => {
    const person = scriptedPerson((entry) =>
      entry.request.kind === "input" ? { ok: true, data: { drink: "tea", size: "l", name: "Ada" } } : { ok: true },
    );
    const { source, ready, supervisor } = start({}, {}, person.waitFor);
    await ready;
    await supervisor.startExtra(demoServer());
    expect(statusOf(source, DEMO_SERVER_NAME).state).toBe("connected");
    const tool = (name: string) => source.tools.find((t) => t.name === `demo_${name}`)!;
    await expect(outputOf(tool("ask_coffee_order").execute({}))).resolves.toMatchObject({ output: "Brewing a large tea for Ada.", isError: false });
    await expect(outputOf(tool("open_docs_page").execute({}))).resolves.toMatchObject({ output: "You opened the page.", isError: false });
    expect(person.seen.map((e) => e.request.kind)).toEqual(["input", "authorization"]);
    expect(person.seen[0].request.data).toMatchObject({ schema: { properties: { drink: expect.any(Object), size: expect.any(Object) } } });
    expect(person.seen[1].request.url).toMatch(/^https:\/\/modelcontextprotocol\.io\//);
    expect(person.seen.every((e) => e.source.server === "demo")).toBe(true);
  });
});
