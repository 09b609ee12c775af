// The cost of one server's event with 10 configured servers against 2,000, measured in the same
// run: the real core (servers disabled, so nothing connects), a listener on servers:changed as a
// page would be, and a burst of status events (the supervisor's annotations, as when servers
// fail and restart). Per event: the synchronous cost of the events, plus the list sent to the
// listener once they settle. The ratio should stay near 1: an event must not walk every server.
//
//   npx tsx bench/server-events.ts [--events 4000]
import { performance } from "node:perf_hooks";
import { createCore } from "../src/main/app/core";
import type { RuntimeSource } from "../src/main/mcp/supervision";
import { browserPlatform } from "../src/main/app/serve";
import { fixed, formatTable } from "./lib/table";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}

const EVENTS = flag("events", 4000);

async function perEvent(servers: number): Promise<{ syncUs: number; totalUs: number; lists: number }> {
  const mcpServers: Record<string, unknown> = {};
  for (let i = 0; i < servers; i++) mcpServers[`remote-${i}`] = { type: "http", url: "http://127.0.0.1:1/mcp", disabled: true };
  const core = await createCore({ config: { mcpServers }, platform: browserPlatform });
  const source = core.internals.source as RuntimeSource;
  let lists = 0;
  core.events.on("servers:changed", () => lists++);
  const settled = () => new Promise((resolve) => setTimeout(resolve, 150));
  await settled();
  lists = 0;
  const start = performance.now();
  for (let i = 0; i < EVENTS; i++) {
    // A connection's own status event, as a connect failing or a restart starting sends.
    source.annotate(`remote-${i % servers}`, i % 2 === 0 ? { state: "restarting", attempt: 1 } : undefined);
  }
  const sync = performance.now() - start;
  await settled();
  core.servers(); // what the page reads next
  const total = performance.now() - start - 150;
  await core.close();
  return { syncUs: (sync * 1000) / EVENTS, totalUs: (Math.max(total, sync) * 1000) / EVENTS, lists };
}

const small = await perEvent(10);
const large = await perEvent(2000);
console.log(
  formatTable(
    ["servers", "per event (sync) µs", "per event (incl. lists) µs", "lists sent"],
    [
      [10, fixed(small.syncUs, 2), fixed(small.totalUs, 2), small.lists],
      [2000, fixed(large.syncUs, 2), fixed(large.totalUs, 2), large.lists],
    ],
  ),
);
console.log(`ratio 2000/10 per event: sync ${fixed(large.syncUs / small.syncUs, 2)}x, incl. lists ${fixed(large.totalUs / small.totalUs, 2)}x`);
