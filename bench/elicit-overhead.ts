// What does the companion's path add to one elicitation round trip?
// (a) a bare SDK v2 Client whose elicitation/create handler accepts at once, versus
// (b) the app's path: loadMcp + the bridge + the Inbox, with a scripted person who answers
//     each question on the next microtask (the Inbox validates and fills defaults as usual).
// Both talk to their own copy of bench/fixtures/elicit-loop.mjs over stdio; one tools/call makes
// the server elicit K times in a row and report each round trip as it measured it, so the
// figures exclude tools/call itself. Rounds alternate a, b, a, b … to cancel drift.
//
//   node bench/bundle-elicit-overhead.mjs && node out/bench/elicit-overhead.mjs [--n 2500] [--k 250]
// (`npm run bench` does both: it is measured bundled, as the app ships)
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { loadMcp } from "../src/main/mcp/source";
import { toToolOutput } from "../src/main/mcp/result";
import { Inbox, inboxWaitFor } from "../src/main/inbox";
import type { McpTool } from "../src/main/mcp/types";
import type { WaitFor } from "../src/main/inbox/wait-for";
import { GroupStdioTransport } from "../src/main/mcp/connection/stdio-transport";
import { repoRoot } from "../test/fixtures";
import { Residence } from "./lib/residence";
import { summarize } from "./lib/stats";
import { fixed, formatTable } from "./lib/table";

// From the repository root, so the bundled copy (out/bench/) finds it as the source does.
const fixture = join(repoRoot, "bench", "fixtures", "elicit-loop.mjs");

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}

const N = Math.max(2000, flag("n", 2500));
const K = Math.min(N, flag("k", 250));
const ROUNDS = Math.ceil(N / K);
const WARMUP = 300;

type LoopRunner = (k: number) => Promise<number[]>;

function parseLoop(text: string, k: number): number[] {
  const { accepted, micros } = JSON.parse(text) as { accepted: number; micros: number[] };
  if (accepted !== k || micros.length !== k) throw new Error(`expected ${k} accepted elicitations, got ${accepted}/${micros.length}`);
  return micros;
}

const bareResidence = new Residence();
const oursResidence = new Residence();

async function bareClient(): Promise<{ run: LoopRunner; close: () => Promise<void> }> {
  const client = new Client({ name: "bench-bare", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  // The same content our path sends for a form accepted as pre-filled (the fixture's defaults), so
  // both paths hand the server the same work; only the client side differs.
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "bench", count: 1, confirm: true } }));
  const transport = new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: "inherit" });
  await client.connect(transport);
  bareResidence.wrap(transport);
  return {
    run: async (k) => {
      const result = await client.callTool({ name: "elicit_loop", arguments: { k } });
      const first = (result.content as { type: string; text?: string }[])[0];
      return parseLoop(first?.text ?? "", k);
    },
    close: () => client.close(),
  };
}

async function companionPath(): Promise<{ run: LoopRunner; close: () => Promise<void> }> {
  // loadMcp builds its transports itself; wrap the one it starts (the client connects, then starts it).
  const start = GroupStdioTransport.prototype.start;
  GroupStdioTransport.prototype.start = async function (this: GroupStdioTransport) {
    await start.call(this);
    oursResidence.wrap(this);
  };
  const inbox = new Inbox();
  inbox.on((event) => {
    if (event.type !== "added") return;
    const id = event.entry.request.id;
    queueMicrotask(() => inbox.answer(id, { ok: true, data: {} }));
  });
  // BENCH_ELICIT_NO_INBOX=1: a waitFor that answers at once, to split the bridge's share from the Inbox's.
  const waitFor: WaitFor = process.env.BENCH_ELICIT_NO_INBOX
    ? async (request) => ({ id: request.id, ok: true, data: { name: "bench", count: 1, confirm: true } })
    : inboxWaitFor(inbox);
  const source = await loadMcp({ mcpServers: { loop: { command: process.execPath, args: [fixture] } } }, { waitFor });
  const tool: McpTool | undefined = source.tools.find((t) => t.tool === "elicit_loop");
  if (!tool) throw new Error(`the fixture did not load: ${JSON.stringify(source.servers())}`);
  return {
    run: async (k) => {
      const result = toToolOutput(await tool.execute({ k }));
      if (result.isError) throw new Error(`elicit_loop failed: ${result.output}`);
      return parseLoop(result.output, k);
    },
    close: async () => {
      inbox.close();
      await source.close();
    },
  };
}

async function main(): Promise<void> {
  const a = await bareClient();
  const b = await companionPath();
  try {
    await a.run(WARMUP);
    await b.run(WARMUP);
    bareResidence.reset();
    oursResidence.reset();

    const bare: number[] = [];
    const ours: number[] = [];
    // ABBA order: whichever path runs second in a round inherits the first one's garbage and
    // cache state, so alternating the order cancels that bias as well as slow drift.
    for (let round = 0; round < ROUNDS; round++) {
      const k = Math.min(K, N - round * K);
      if (round % 2 === 0) {
        bare.push(...(await a.run(k)));
        ours.push(...(await b.run(k)));
      } else {
        ours.push(...(await b.run(k)));
        bare.push(...(await a.run(k)));
      }
    }

    const sa = summarize(bare);
    const sb = summarize(ours);
    console.log(`elicit-overhead: ${N} elicitations per path, ${ROUNDS} interleaved rounds of ${K}, ${WARMUP} warm-up each; times in µs per elicitation (server-side round trip)`);
    console.log(
      formatTable(
        ["path", "n", "p50", "p90", "p99", "mean", "max"],
        [
          ["(a) bare SDK client", sa.n, fixed(sa.p50), fixed(sa.p90), fixed(sa.p99), fixed(sa.mean), fixed(sa.max)],
          [process.env.BENCH_ELICIT_NO_INBOX ? "(b) loadMcp + bridge, no Inbox" : "(b) loadMcp + bridge + Inbox", sb.n, fixed(sb.p50), fixed(sb.p90), fixed(sb.p99), fixed(sb.mean), fixed(sb.max)],
        ],
      ),
    );
    const p50 = sb.p50 / sa.p50;
    const p99 = sb.p99 / sa.p99;
    // Latencies this small are at the mercy of the scheduler: say how busy the machine was.
    console.log(`machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    const ra = summarize(bareResidence.samples);
    const rb = summarize(oursResidence.samples);
    console.log(
      `client residence (elicitation/create in → result out), µs: (a) p50 ${fixed(ra.p50)} p99 ${fixed(ra.p99)}; ` +
        `(b) p50 ${fixed(rb.p50)} p99 ${fixed(rb.p99)}; our path adds ${fixed(rb.p50 - ra.p50)} µs at p50`,
    );
    console.log(`ratio b/a: p50 ${fixed(p50, 3)}  p99 ${fixed(p99, 3)}  (target ≤ 1.10 at p50: ${p50 <= 1.1 ? "met" : "NOT met"})`);
  } finally {
    await a.close();
    await b.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
