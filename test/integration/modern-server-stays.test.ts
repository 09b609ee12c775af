// A 2026-07-28 server (the SDK v2 server over streamable HTTP, modern-elicit.mjs --record) has no
// ping and no logging/setLevel. The companion's own requests to it are chosen by that era: its
// health check stays a live server's answer through many intervals (no drop, no restart), and an
// agent's logging level reaches the legacy server beside it but is never tried on the modern one.
import { afterEach, describe, expect, it } from "vitest";
import { startMcp } from "../../src/main/mcp/source";
import { superviseSource } from "../../src/main/mcp/supervisor";
import type { RuntimeSource } from "../../src/main/mcp/supervision";
import type { ServerStatus } from "../../src/shared/types";
import { everythingStdioCommand, startHttpFixture, type RunningHttpServer } from "../fixtures";
import { connectAgent, startCompanion } from "./gateway-harness";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

async function modernServer(): Promise<RunningHttpServer & { seen(): Promise<string[]> }> {
  const server = await startHttpFixture(["--record"]);
  cleanup.push(() => server.close());
  const seenUrl = new URL("/seen", server.url);
  return { ...server, seen: async () => (await (await fetch(seenUrl)).json()) as string[] };
}

describe("a 2026-07-28 server", () => {
  it("stays connected through five and more health-check intervals, with no restart and no ping sent", async () => {
    const server = await modernServer();
    const logs: string[] = [];
    const { source, ready } = startMcp({ mcpServers: { modern: { url: server.url } } }, { log: (l) => logs.push(l) });
    const runtime = source as RuntimeSource;
    cleanup.push(() => source.close());
    await ready;
    expect(runtime.connection("modern")?.era()).toBe("modern");
    const statuses: ServerStatus["state"][] = [];
    source.on((event) => {
      if (event.type === "status") statuses.push(event.status.state);
    });
    const intervalMs = 150;
    const supervisor = superviseSource(runtime, {
      pingIntervalMs: intervalMs,
      pingTimeoutMs: 2000,
      backoff: { initialMs: 50, maxMs: 100, crashLoopFailures: 5, windowMs: 60_000 },
      log: (l) => logs.push(l),
    });
    cleanup.push(() => supervisor.close());
    const before = runtime.connection("modern");
    const seenBefore = (await server.seen()).length;
    await new Promise((r) => setTimeout(r, intervalMs * 8));
    const seen = (await server.seen()).slice(seenBefore);

    expect(runtime.connection("modern")).toBe(before);
    expect(source.servers().find((s) => s.name === "modern")?.state).toBe("connected");
    expect(statuses).not.toContain("restarting");
    expect(logs.filter((l) => /dropped|restarting|failed/.test(l))).toEqual([]);
    // The check it got is the one its era has, at each interval.
    expect(seen).not.toContain("ping");
    expect(seen.filter((m) => m === "server/discover").length).toBeGreaterThanOrEqual(5);
  }, 20_000);

  it("never gets logging/setLevel, while a 2025-11-25 server beside it does", async () => {
    const server = await modernServer();
    const logs: string[] = [];
    const companion = await startCompanion({
      config: { mcpServers: { modern: { url: server.url }, everything: everythingStdioCommand() } },
      log: (l) => logs.push(l),
    });
    cleanup.push(() => companion.close());
    const agent = await connectAgent(companion, "claude-code");
    cleanup.push(() => agent.close());
    expect(agent.getServerCapabilities()?.logging).toBeDefined();

    await agent.setLoggingLevel("debug");
    await agent.setLoggingLevel("info");

    expect(logs.filter((l) => l.includes("setLevel"))).toEqual([]);
    expect(await server.seen()).not.toContain("logging/setLevel");
  }, 30_000);
});
