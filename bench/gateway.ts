// tools/call of server-everything's `echo` on loopback, three ways, in one run:
//   (a) direct      — an SDK client straight to server-everything over streamable HTTP
//   (b) gateway     — through the companion's /mcp (token, guard, McpSource), server-everything
//                     behind it over streamable HTTP too
//   (c) supergateway — the npm stdio→streamable HTTP bridge in front of server-everything (stdio)
// plus (b') the gateway with server-everything over stdio, the like-for-like twin of (c).
// Concurrency 1 and 16 (16 calls in flight on one session), p50/p99 latency and throughput, and
// the ratios b/a and b/c. Targets (issue 4): b−a ≤ 0.5 ms at p50, c=1; b/c ≤ 1.0.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Inbox } from "../src/main/inbox";
import { loadMcp } from "../src/main/mcp/source";
import { startListener } from "../src/main/http/listener";
import { createGatewayRoute } from "../src/main/gateway";
import { everythingEntry, freePort, startEverythingHttp } from "../test/fixtures";
import { summarize } from "./lib/stats";
import { fixed, formatTable } from "./lib/table";

const ITERATIONS = Number(process.env.BENCH_ITER ?? 1000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const CONCURRENCY = [1, 16];

interface Target {
  label: string;
  url: string;
  headers?: Record<string, string>;
  tool: string;
}

async function client(target: Target): Promise<Client> {
  const c = new Client({ name: "bench", version: "1.0.0" }, { capabilities: {} });
  await c.connect(new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.headers ?? {} } }));
  return c;
}

async function measure(target: Target, concurrency: number): Promise<{ latencies: number[]; seconds: number }> {
  const c = await client(target);
  try {
    const call = async () => {
      const result = await c.callTool({ name: target.tool, arguments: { message: "ping" } });
      if (result.isError) throw new Error(`${target.label}: echo failed`);
    };
    for (let i = 0; i < WARMUP; i++) await call();
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < ITERATIONS) {
          next += 1;
          const t = performance.now();
          await call();
          latencies.push(performance.now() - t);
        }
      }),
    );
    return { latencies, seconds: (performance.now() - started) / 1000 };
  } finally {
    await c.close();
  }
}

function waitForPort(port: number, child: ChildProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error("supergateway exited"));
      const socket = connect({ port, host: "127.0.0.1" });
      socket.once("connect", () => {
        socket.destroy();
        resolve();
      });
      socket.once("error", () => (Date.now() > deadline ? reject(new Error("supergateway did not open its port")) : setTimeout(attempt, 100)));
    };
    attempt();
  });
}

async function companion(config: unknown) {
  const inbox = new Inbox();
  const source = await loadMcp(config, { waitFor: (r, ctx) => inbox.waitFor(r, { source: { server: ctx.server, agent: ctx.agent }, signal: ctx.signal }) });
  const token = "bench-token";
  const gateway = createGatewayRoute({ source, inbox });
  const listener = await startListener({ port: 0, token: () => token, staticDir: mkdtempSync(join(tmpdir(), "tnc-bench-")), routes: [gateway] });
  return {
    url: `${listener.url}/mcp`,
    headers: { authorization: `Bearer ${token}` },
    async close() {
      await gateway.close();
      await listener.close();
      inbox.close();
      await source.close();
    },
  };
}

const everything = await startEverythingHttp();
const viaHttp = await companion({ mcpServers: { everything: { type: "http", url: everything.url, protocol: "legacy" } } });
const viaStdio = await companion({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry, "stdio"], protocol: "legacy" } } });
const sgPort = await freePort();
const supergateway = spawn(
  join("node_modules", ".bin", "supergateway"),
  ["--stdio", `${process.execPath} ${everythingEntry} stdio`, "--outputTransport", "streamableHttp", "--stateful", "--port", String(sgPort), "--logLevel", "none"],
  { stdio: ["ignore", "ignore", "inherit"], detached: true },
);

try {
  await waitForPort(sgPort, supergateway);
  const targets: Record<string, Target> = {
    a: { label: "(a) direct HTTP", url: everything.url, tool: "echo" },
    b: { label: "(b) gateway → HTTP", url: viaHttp.url, headers: viaHttp.headers, tool: "everything_echo" },
    bs: { label: "(b') gateway → stdio", url: viaStdio.url, headers: viaStdio.headers, tool: "everything_echo" },
    c: { label: "(c) supergateway → stdio", url: `http://127.0.0.1:${sgPort}/mcp`, tool: "echo" },
  };
  console.log(`tools/call echo, ${ITERATIONS} calls after ${WARMUP} warm-up per row, loopback, Node ${process.versions.node}`);
  for (const concurrency of CONCURRENCY) {
    const rows: (string | number)[][] = [];
    const stats: Record<string, { p50: number; p99: number; rps: number }> = {};
    for (const [key, target] of Object.entries(targets)) {
      const { latencies, seconds } = await measure(target, concurrency);
      const s = summarize(latencies);
      stats[key] = { p50: s.p50, p99: s.p99, rps: latencies.length / seconds };
      rows.push([target.label, fixed(s.p50, 3), fixed(s.p99, 3), fixed(stats[key].rps, 0)]);
    }
    console.log(`\nconcurrency ${concurrency}`);
    console.log(formatTable(["path", "p50 ms", "p99 ms", "calls/s"], rows));
    const { a, b, bs, c } = stats;
    console.log(
      formatTable(
        ["ratio", "p50", "p99", "calls/s"],
        [
          ["b/a", fixed(b.p50 / a.p50, 2), fixed(b.p99 / a.p99, 2), fixed(b.rps / a.rps, 2)],
          ["b/c", fixed(b.p50 / c.p50, 2), fixed(b.p99 / c.p99, 2), fixed(b.rps / c.rps, 2)],
          ["b'/c", fixed(bs.p50 / c.p50, 2), fixed(bs.p99 / c.p99, 2), fixed(bs.rps / c.rps, 2)],
        ],
      ),
    );
    console.log(`b−a at p50: ${fixed(b.p50 - a.p50, 3)} ms (target ≤ 0.5 ms at concurrency 1)`);
  }
} finally {
  try {
    process.kill(-supergateway.pid!, "SIGKILL");
  } catch {
    // already gone
  }
  await viaHttp.close();
  await viaStdio.close();
  await everything.close();
}
