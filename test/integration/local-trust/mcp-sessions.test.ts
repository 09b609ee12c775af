// What one credential can make the gateway keep through /mcp: sessions are capped per credential
// and in all; at a cap the least recently used idle session makes room, and only when every
// session is in use is a new one refused, with a 429 that names the cap and a Retry-After. Idle
// sessions expire sooner as the sessions near a cap. Memory per session is measured and bounded,
// and an event stream nobody reads is cut at its byte bound.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, request, type IncomingMessage } from "node:http";
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { afterEach, describe, expect, it } from "vitest";
import { startListener, type Listener } from "../../../src/main/http/listener";
import { createGatewayRoute, type GatewayOptions, type GatewayRoute } from "../../../src/main/gateway";
import { MAX_MCP_SESSIONS_PER_CREDENTIAL, MAX_MCP_SESSIONS_TOTAL } from "../../../src/shared/limits";
import { standInSource } from "../../helpers/stand-in-source";
import { becomesTrue } from "../../helpers/poll";
import { agentOutbound } from "../gateway-harness";

const TOKEN = "mcp-sessions-token";
let listener: Listener | undefined;
let gateway: GatewayRoute | undefined;
const held: IncomingMessage[] = [];
const lines: string[] = [];

afterEach(async () => {
  for (const res of held.splice(0)) res.destroy();
  await gateway?.close();
  await listener?.close();
  gateway = listener = undefined;
  lines.length = 0;
});

async function start(options: Partial<GatewayOptions> = {}, source = standInSource()) {
  gateway = createGatewayRoute({ source, log: (line) => lines.push(line), outbound: agentOutbound(), ...options });
  listener = await startListener({ port: 0, token: () => TOKEN, staticDir: mkdtempSync(join(tmpdir(), "tnc-sessions-")), routes: [gateway] });
  return { gateway, url: `${listener.url}/mcp`, source };
}

const HEADERS = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood", version: "1" } } });

async function initialize(url: string): Promise<{ status: number; session?: string; retryAfter?: string; body: string }> {
  const res = await fetch(url, { method: "POST", headers: HEADERS, body: INITIALIZE });
  return { status: res.status, session: res.headers.get("mcp-session-id") ?? undefined, retryAfter: res.headers.get("retry-after") ?? undefined, body: await res.text() };
}

/** An agent's GET event stream, held open and never read: the session is in use. */
function holdStream(url: string, session: string, extra: Record<string, string> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", headers: { authorization: HEADERS.authorization, accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25", ...extra } }, (res) => {
      res.pause();
      held.push(res);
      resolve(res);
    });
    req.on("error", reject);
    req.end();
  });
}

async function ping(url: string, session: string): Promise<number> {
  const res = await fetch(url, { method: "POST", headers: { ...HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }) });
  await res.text();
  return res.status;
}

describe("the session caps", () => {
  it("past the per-credential cap with every session in use: 429 naming the cap, with Retry-After; a fresh one works once they expire", async () => {
    const { gateway, url } = await start({ maxSessions: { perCredential: 4, total: 10 }, idleSessionMs: 1000, minIdleSessionMs: 1000 });
    for (let i = 0; i < 4; i++) {
      const opened = await initialize(url);
      expect(opened.status).toBe(200);
      expect((await holdStream(url, opened.session!)).statusCode).toBe(200);
    }
    const refused = await initialize(url);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, message: expect.stringContaining("MAX_MCP_SESSIONS_PER_CREDENTIAL") } });
    expect(refused.body).toContain("has 4 open");
    // The agents go away without DELETE: once idle past the deadline, their sessions end.
    for (const res of held.splice(0)) res.destroy();
    expect(await becomesTrue(() => gateway.sessions().length === 0, 5000)).toBe(true);
    expect(lines.join("\n")).toMatch(/session \w+ ended: idle/);
    expect((await initialize(url)).status).toBe(200);
  });

  it("past the total cap: 429 naming MAX_MCP_SESSIONS_TOTAL", async () => {
    const { url } = await start({ maxSessions: { perCredential: 10, total: 3 } });
    for (let i = 0; i < 3; i++) expect((await holdStream(url, (await initialize(url)).session!)).statusCode).toBe(200);
    const refused = await initialize(url);
    expect(refused.status).toBe(429);
    expect(refused.body).toContain("MAX_MCP_SESSIONS_TOTAL");
  });

  it("at the cap, the least recently used idle session makes room for a fresh agent; it gets 404 and the others go on", async () => {
    const { gateway, url } = await start({ maxSessions: { perCredential: 3, total: 10 } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await initialize(url)).session!);
    // The first is used again, so the second is now the least recently used.
    expect(await ping(url, ids[0])).toBe(200);
    const fresh = await initialize(url);
    expect(fresh.status).toBe(200);
    expect(gateway.sessions().map((s) => s.id).sort()).toEqual([ids[0], ids[2], fresh.session!].sort());
    expect(await ping(url, ids[1])).toBe(404);
    expect(await ping(url, ids[0])).toBe(200);
    expect(lines.join("\n")).toMatch(/ended: the cap of 3 sessions per credential was reached/);
  });

  it("the idle deadline falls as the sessions near the cap", async () => {
    const { gateway, url } = await start({ maxSessions: { perCredential: 4, total: 10 }, idleSessionMs: 60_000, minIdleSessionMs: 200 });
    const first = (await initialize(url)).session!;
    // One of four: under half the cap, the full deadline (a minute) holds.
    await new Promise((r) => setTimeout(r, 700));
    expect(gateway.sessions()).toHaveLength(1);
    // Four of four: the deadline is the least one, and the session idle for 700 ms ends; the
    // three fresh ones stay (with three of four open, the deadline is back to half a minute).
    const fresh: string[] = [];
    for (let i = 0; i < 3; i++) fresh.push((await initialize(url)).session!);
    expect(await becomesTrue(() => !gateway.sessions().some((s) => s.id === first), 1000)).toBe(true);
    expect(gateway.sessions().map((s) => s.id).sort()).toEqual(fresh.sort());
  });

  it("a flood of initializes from one token keeps at most MAX_MCP_SESSIONS_PER_CREDENTIAL sessions (production caps)", async () => {
    const { gateway, url } = await start();
    expect(MAX_MCP_SESSIONS_PER_CREDENTIAL).toBeLessThanOrEqual(MAX_MCP_SESSIONS_TOTAL);
    let most = 0;
    for (let batch = 0; batch < 20; batch++) {
      const opened = await Promise.all(Array.from({ length: 25 }, () => initialize(url)));
      // Nobody is refused: each flood session is idle the moment its answer is written.
      expect(opened.every((o) => o.status === 200)).toBe(true);
      most = Math.max(most, gateway.sessions().length);
    }
    expect(most).toBeLessThanOrEqual(MAX_MCP_SESSIONS_PER_CREDENTIAL);
  }, 60_000);
});

describe("per credential", () => {
  it("counts each credential on its own, and a session answers only the credential that opened it", async () => {
    // Per-agent credentials do not exist yet: this server stands in for the guard, naming the
    // credential from a header, as the listener passes the guard's verdict to the route.
    const route = createGatewayRoute({ source: standInSource(), outbound: agentOutbound(), maxSessions: { perCredential: 2, total: 10 } });
    const server = createServer((req, res) => void route.handle(req, res, { credential: String(req.headers["x-credential"]) }));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    const as = (credential: string) => ({ ...HEADERS, "x-credential": credential });
    try {
      const open = async (credential: string) => {
        const res = await fetch(url, { method: "POST", headers: as(credential), body: INITIALIZE });
        await res.text();
        return { status: res.status, session: res.headers.get("mcp-session-id")! };
      };
      const a = [await open("agent-a"), await open("agent-a")];
      for (const { session } of a) expect((await holdStream(url, session, { "x-credential": "agent-a" })).statusCode).toBe(200);
      expect((await open("agent-a")).status).toBe(429);
      // agent-b has its own count.
      const b = await open("agent-b");
      expect(b.status).toBe(200);
      // agent-b cannot use agent-a's session: to it, that session does not exist.
      const ping = (credential: string, session: string) =>
        fetch(url, { method: "POST", headers: { ...as(credential), "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }, body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }) }).then(async (r) => (await r.text(), r.status));
      expect(await ping("agent-b", a[0].session)).toBe(404);
      expect(await ping("agent-a", a[0].session)).toBe(200);
    } finally {
      for (const res of held.splice(0)) res.destroy();
      await route.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe("memory per session", () => {
  it("is measured and bounded: every session the caps allow fits in a few tens of MiB", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const n = 300;
    const { gateway, url } = await start({ maxSessions: { perCredential: n, total: n } });
    await initialize(url);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < n / 25; i++) await Promise.all(Array.from({ length: 25 }, () => initialize(url)));
    expect(gateway.sessions().length).toBeGreaterThanOrEqual(n - 1);
    gc();
    const perSession = (process.memoryUsage().heapUsed - before) / (n - 1);
    console.log(`gateway: ${(perSession / 1024).toFixed(1)} KiB of heap per idle /mcp session (${n - 1} sessions)`);
    expect(perSession).toBeLessThan(64 * 1024);
    // The most sessions the caps allow, at this size, before their event stores (bounded in all).
    expect((perSession * MAX_MCP_SESSIONS_TOTAL) / 1024 / 1024).toBeLessThan(16);
  }, 60_000);
});

describe("an event stream nobody reads", () => {
  it("is destroyed once what waits for it passes the bound; the session stays for a reconnect", async () => {
    // A server that logs: each of its log messages goes to every agent that set a level, on its GET stream.
    const source = Object.assign(standInSource(), {
      backends: () => [{ name: "demo", capabilities: () => ({ logging: {} }), forward: async () => ({}), offers: () => true }],
    });
    const { gateway, url } = await start({ maxQueuedBytes: 256 * 1024 }, source);
    const opened = await initialize(url);
    const session = { ...HEADERS, "mcp-session-id": opened.session!, "mcp-protocol-version": "2025-11-25" };
    expect((await fetch(url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).status).toBe(202);
    const level = await fetch(url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "logging/setLevel", params: { level: "debug" } }) });
    expect(level.status).toBe(200);
    await level.text();
    const stream = await holdStream(url, opened.session!);
    let closed = false;
    stream.on("close", () => (closed = true));
    stream.on("error", () => {});
    const before = process.memoryUsage().rss;
    const data = "x".repeat(64 * 1024);
    // 128 MiB offered to an agent that reads none of it.
    for (let i = 0; i < 2000 && !closed; i++) {
      source.emit({ type: "notification", server: "demo", method: "notifications/message", params: { level: "info", data } });
      if (i % 20 === 19) await new Promise((r) => setImmediate(r));
    }
    expect(await becomesTrue(() => closed, 5000)).toBe(true);
    expect(lines.join("\n")).toMatch(/an agent stopped reading its event stream \(\d+ KiB waiting\); closed it/);
    expect(process.memoryUsage().rss - before).toBeLessThan(96 * 1024 * 1024);
    expect(gateway.sessions().map((s) => s.id)).toContain(opened.session);
  }, 60_000);
});
