// Memory with 20 stdio servers connected through loadMcp: this process's RSS before and after,
// plus the servers' own RSS (VmRSS of every descendant process, from /proc), so the figure
// covers what the companion costs the machine, not only its own heap. Linux only (/proc).
//
//   node bench/bundle-rss-20-servers.mjs && node out/bench/rss-20-servers.mjs [--servers 20]
// (`npm run bench` does both: measured bundled, as the app ships, without tsx's loader)
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadMcp } from "../src/main/mcp/source";
import { Inbox, inboxWaitFor } from "../src/main/inbox";
import { repoRoot } from "../test/fixtures";
import { fixed, formatTable, mib } from "./lib/table";

// From the repository root, so the bundled copy (out/bench/) finds it as the source does.
const fixture = join(repoRoot, "bench", "fixtures", "elicit-loop.mjs");
/** Issue 11: the core process's own RSS with 20 stdio servers connected, children counted apart. */
const TARGET_RSS = 80 * 1024 * 1024;
const i = process.argv.indexOf("--servers");
const COUNT = i >= 0 && Number(process.argv[i + 1]) > 0 ? Math.floor(Number(process.argv[i + 1])) : 20;

/** pid → parent pid for every process we may read. */
function processTable(): Map<number, number> {
  const table = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name may contain spaces and parentheses; fields resume after the last ")".
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      table.set(Number(name), ppid);
    } catch {
      // The process exited while we looked.
    }
  }
  return table;
}

function descendants(root: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [pid, ppid] of table) {
      if (ppid === parent) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found;
}

function vmRssBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function settle(): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 500));
}

async function main(): Promise<void> {
  await settle();
  const before = process.memoryUsage().rss;
  // Children that exist before loading (tsx's esbuild service) are not the servers: leave them out.
  const preexisting = new Set(descendants(process.pid));

  const servers = Object.fromEntries(
    Array.from({ length: COUNT }, (_, n) => [`s${String(n + 1).padStart(2, "0")}`, { command: process.execPath, args: [fixture] }]),
  );
  const inbox = new Inbox();
  const started = performance.now();
  const source = await loadMcp(
    { mcpServers: servers },
    { waitFor: inboxWaitFor(inbox) },
  );
  const loadMs = performance.now() - started;
  try {
    const connected = source.servers().filter((s) => s.state === "connected").length;
    if (connected !== COUNT) throw new Error(`only ${connected}/${COUNT} servers connected: ${JSON.stringify(source.servers())}`);
    // One call each, so every connection has done real work, not just the handshake.
    await Promise.all(source.tools.filter((t) => t.tool === "ping").map((t) => t.execute({})));
    await settle();

    const after = process.memoryUsage().rss;
    const kids = descendants(process.pid).filter((pid) => !preexisting.has(pid));
    const kidsRss = kids.reduce((sum, pid) => sum + vmRssBytes(pid), 0);
    console.log(`rss-20-servers: ${COUNT} stdio servers (bench/fixtures/elicit-loop.mjs) via loadMcp, loaded in ${fixed(loadMs, 0)} ms`);
    console.log(
      formatTable(
        ["", "companion RSS", "child processes", "children RSS", "total"],
        [
          ["before loadMcp", mib(before), 0, "-", mib(before)],
          [`${COUNT} servers connected`, mib(after), kids.length, mib(kidsRss), mib(after + kidsRss)],
        ],
      ),
    );
    console.log(`core RSS with ${COUNT} servers: ${mib(after)} (target ≤ ${mib(TARGET_RSS)}${COUNT === 20 ? (after <= TARGET_RSS ? " — met" : " — NOT met") : ""}; children counted apart)`);
    console.log(`companion grew by ${mib(after - before)} (${mib((after - before) / COUNT)} per server); each child ≈ ${mib(kidsRss / Math.max(1, kids.length))}`);
  } finally {
    inbox.close();
    await source.close();
  }
  await new Promise((r) => setTimeout(r, 300));
  const left = descendants(process.pid).filter((pid) => !preexisting.has(pid)).length;
  if (left > 0) console.log(`warning: ${left} child process(es) still alive after close()`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
