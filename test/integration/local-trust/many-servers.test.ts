// Thousands of configured remote servers that never answer must not stall the companion: the
// start-up of 2,000 unreachable servers (every one failing, each failure an event, each failure a
// restart later) runs while agents call /mcp and /v1/requests, and their calls stay within a bound
// taken from the same calls to a companion without servers (maxRequestMs below).
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createCore, type Core } from "../../../src/main/app/core";
import { startCompanionServer, type CompanionServer } from "../../../src/main/app/companion-server";
import { browserPlatform } from "../../../src/main/app/serve";

const SERVERS = Number(process.env.TNC_MANY_SERVERS ?? 2000);
const WATCH_MS = 4000;
/**
 * The bound on an agent's request while the servers start. The machines these tests run on are
 * shared (a load of 10+ on 2 cores is common), so the same calls are first timed against a
 * companion with no servers in the same run, and the bound is 100 ms or 4x that baseline's
 * slowest call, whichever is larger; the figures are printed either way. 95 in 100 calls must
 * stay under it, and the slowest under twice it: 2,000 fetches failing at once leave garbage
 * whose collection alone (about half a second in four, in a CPU profile) can pause one call by
 * more than the bound, on the code before the layout change as after it.
 */
let maxRequestMs = 100;

let core: Core | undefined;
let server: CompanionServer | undefined;
let blackhole: Server | undefined;
const held = new Set<import("node:net").Socket>();

afterEach(async () => {
  const closing = performance.now();
  await core?.close();
  if (core) console.log(`many-servers: close took ${Math.round(performance.now() - closing)} ms`);
  core = undefined;
  server = undefined;
  for (const socket of held) socket.destroy();
  held.clear();
  await new Promise<void>((resolve) => (blackhole ? blackhole.close(() => resolve()) : resolve()));
  blackhole = undefined;
});

function configWith(url: string | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), "tnc-many-"));
  const mcpServers: Record<string, unknown> = {};
  for (let i = 0; url !== undefined && i < SERVERS; i++) mcpServers[`remote-${i}`] = { type: "http", url };
  const path = join(dir, "mcp.json");
  writeFileSync(path, JSON.stringify({ mcpServers }));
  return path;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** Each HTTP request's time, one by one: the bound is on every request an agent makes. */
async function each(times: number[], run: () => Promise<Response>): Promise<Response> {
  const start = performance.now();
  const res = await run();
  await res.clone().text();
  times.push(performance.now() - start);
  return res;
}

/** An agent's start-up: initialize, then tools/list, over plain HTTP as any MCP client sends them. */
async function agentStart(url: string, token: string, times: number[]): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await each(times, () => fetch(`${url}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "probe", version: "1" } } }),
  }));
  const session = init.headers.get("mcp-session-id");
  await init.text();
  expect(init.status).toBe(200);
  const more = { ...headers, ...(session ? { "mcp-session-id": session } : {}), "mcp-protocol-version": "2025-11-25" };
  await (await each(times, () => fetch(`${url}/mcp`, { method: "POST", headers: more, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) }))).text();
  const list = await each(times, () => fetch(`${url}/mcp`, { method: "POST", headers: more, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) }));
  await list.text();
  expect(list.status).toBe(200);
  // A well-behaved agent ends its session; the next probe is a new agent starting.
  if (session) await (await fetch(`${url}/mcp`, { method: "DELETE", headers: more })).text();
}

function p95(times: number[]): number {
  return Math.round([...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)] ?? 0);
}

/** Every call of the run against the bound: 95 in 100 under it, the slowest under twice it. */
function expectWithinBound(figures: { mcpMaxMs: number; requestsMaxMs: number; p95Ms: number }): void {
  expect(figures.p95Ms).toBeLessThan(maxRequestMs);
  expect(figures.mcpMaxMs).toBeLessThan(2 * maxRequestMs);
  expect(figures.requestsMaxMs).toBeLessThan(2 * maxRequestMs);
}

async function measureStartUp(target: string | undefined, label: string, withPage: boolean) {
  const configPath = configWith(target);
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const before = performance.now();
  core = await createCore({ configPath, platform: browserPlatform, connectInBackground: true });
  server = await startCompanionServer(core, { port: 0, staticDir: mkdtempSync(join(tmpdir(), "tnc-static-")) });
  const upMs = performance.now() - before;
  const started = performance.now();
  const url = server.url;
  const token = core.token();
  let page: WebSocket | undefined;
  let pageMessages = 0;
  if (withPage) {
    page = new WebSocket(`${url.replace("http", "ws")}/ws`, { headers: { authorization: `Bearer ${token}` } });
    page.on("message", () => pageMessages++);
    await new Promise((resolve, reject) => {
      page!.once("open", resolve);
      page!.once("error", reject);
    });
  }
  const mcp: number[] = [];
  const requests: number[] = [];
  while (performance.now() - started < WATCH_MS) {
    await agentStart(url, token, mcp);
    requests.push(await timed(async () => {
      const res = await fetch(`${url}/v1/requests`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      await res.text();
    }));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  histogram.disable();
  page?.close();
  expect(mcp.length).toBeGreaterThan(1);
  const failed = core.internals.source.servers().filter((s) => s.state !== "connecting").length;
  const figures = {
    label,
    servers: target === undefined ? 0 : SERVERS,
    upMs: Math.round(upMs),
    settled: failed,
    loopDelayMaxMs: Math.round(histogram.max / 1e6),
    loopDelayP99Ms: Math.round(histogram.percentile(99) / 1e6),
    mcpMaxMs: Math.round(Math.max(...mcp)),
    requestsMaxMs: Math.round(Math.max(...requests)),
    mcpP95Ms: p95(mcp),
    // Over every call of the run: /v1/requests alone is a dozen calls, where a 95th is the slowest.
    p95Ms: p95([...mcp, ...requests]),
    calls: mcp.length + requests.length,
    pageMessages,
  };
  console.log(`many-servers: ${JSON.stringify(figures)}`);
  return figures;
}

describe("2,000 unreachable remote servers at start-up", { timeout: 60_000 }, () => {
  it("baseline: the same calls to a companion with no servers", async () => {
    const figures = await measureStartUp(undefined, "baseline, no servers", false);
    maxRequestMs = Math.max(100, 4 * Math.max(figures.mcpMaxMs, figures.requestsMaxMs));
    console.log(`many-servers: bound for the runs below: ${maxRequestMs} ms`);
  });

  it("refused at once (127.0.0.1:1), no page open: agent requests stay within the bound", async () => {
    const figures = await measureStartUp("http://127.0.0.1:1/mcp", "refused, no page", false);
    expect(figures.settled).toBeGreaterThan(100);
    expectWithinBound(figures);
  });

  it("refused at once, with a page connected: the same, and the page hears of the servers", async () => {
    const figures = await measureStartUp("http://127.0.0.1:1/mcp", "refused, page open", true);
    expect(figures.settled).toBeGreaterThan(100);
    expect(figures.pageMessages).toBeGreaterThan(0);
    expectWithinBound(figures);
  });

  it("blackholed (accepts, never answers): connects are bounded and agents are not held up", async () => {
    // Accept and say nothing: each connect waits on its own timeout.
    blackhole = createServer((socket) => {
      held.add(socket);
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => blackhole!.listen(0, "127.0.0.1", resolve));
    const port = (blackhole.address() as { port: number }).port;
    const figures = await measureStartUp(`http://127.0.0.1:${port}/mcp`, "blackholed, no page", false);
    expectWithinBound(figures);
  });
});
