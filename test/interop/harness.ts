// The interop harness: real outside MCP software on both sides of a real companion.
//  - Agents: each outside client library runs as its own child process (test/interop/agents/*.mjs)
//    under Node 22 (several declare engines >= 22; the project runs on Node 20) and is driven
//    through the line protocol of agents/protocol.mjs.
//  - Backends: outside MCP servers the companion connects to (stdio children it owns, or HTTP
//    processes started here), each also reachable directly so a test can compare what an agent
//    gets through the gateway with what the same library gets from the same server.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ensureNode22 } from "../conformance/node22";
import { everythingStdioCommand, freePort, repoRoot, startEverythingHttp, type RunningHttpServer } from "../fixtures";

/**
 * Every switch the outside packages read to phone home, found in their sources under
 * node_modules: mcp-use (1.x client and 2.x server, PostHog), Mastra, LangChain/LangSmith tracing,
 * and the general DO_NOT_TRACK convention.
 */
export const TELEMETRY_OFF: Record<string, string> = {
  MCP_USE_ANONYMIZED_TELEMETRY: "false",
  MASTRA_TELEMETRY_DISABLED: "1",
  LANGCHAIN_TRACING_V2: "false",
  LANGCHAIN_TRACING: "false",
  LANGSMITH_TRACING: "false",
  LANGSMITH_TRACING_V2: "false",
  DO_NOT_TRACK: "1",
};

const agentsDir = join(repoRoot, "test", "interop", "agents");
const serversDir = join(repoRoot, "test", "interop", "servers");
const modules = join(repoRoot, "node_modules");

export type Target = { url: string; headers?: Record<string, string> } | { command: string; args: string[]; env?: Record<string, string> };

export interface Reply {
  ok: boolean;
  result?: any;
  error?: { message: string; code?: number; data?: unknown; unsupported?: boolean };
  ms?: number;
}

export interface AgentEvent {
  event: string;
  params?: any;
}

export interface Agent {
  /** Sends one op and resolves with the agent's reply (never rejects on the library's error). */
  send(op: string, args?: Record<string, unknown>): Promise<Reply>;
  /** Like send, but throws the library's error: for ops a test expects to work. */
  must(op: string, args?: Record<string, unknown>): Promise<any>;
  events: AgentEvent[];
  /** Events since `mark` (an index into events), of this kind. */
  since(mark: number, kind: string): AgentEvent[];
  close(): Promise<void>;
}

export async function node22(): Promise<string> {
  return ensureNode22(repoRoot);
}

/** Spawns agents/<script> under Node 22 and waits for its `ready` line. */
export async function spawnAgent(script: string): Promise<Agent> {
  const node = await node22();
  const child = spawn(node, [join(agentsDir, script)], {
    cwd: repoRoot,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...TELEMETRY_OFF },
  });
  let stderr = "";
  child.stderr!.on("data", (c) => (stderr = (stderr + String(c)).slice(-4000)));
  const events: AgentEvent[] = [];
  const pending = new Map<number, (reply: Reply) => void>();
  let next = 1;
  let ready: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (!line.startsWith("@@interop ")) return;
    const message = JSON.parse(line.slice("@@interop ".length));
    if (message.event === "ready") return ready();
    if (message.event) return void events.push(message);
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      for (const [, resolveReply] of pending) resolveReply({ ok: false, error: { message: `agent ${script} exited (${code ?? signal}): ${stderr.trim()}` } });
      pending.clear();
      resolve();
    }),
  );
  await Promise.race([
    started,
    exited.then(() => {
      throw new Error(`agent ${script} exited before it was ready: ${stderr.trim()}`);
    }),
  ]);
  const send = (op: string, args: Record<string, unknown> = {}) =>
    new Promise<Reply>((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      child.stdin!.write(JSON.stringify({ id, op, ...args }) + "\n");
    });
  return {
    send,
    async must(op, args) {
      const reply = await send(op, args);
      if (!reply.ok) throw new Error(`${script} ${op} failed: ${reply.error?.message}${reply.error?.code === undefined ? "" : ` (code ${reply.error.code})`}`);
      return reply.result;
    },
    events,
    since: (mark, kind) => events.slice(mark).filter((e) => e.event === kind),
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        await Promise.race([send("exit"), new Promise((r) => setTimeout(r, 3000))]);
        child.kill("SIGKILL");
      }
      await exited;
    },
  };
}

/** One outside server behind the companion: its entry in the companion's config and its direct target. */
export interface Backend {
  /** The companion's name for it (its tools are `<name>_<tool>` through the gateway). */
  name: string;
  config: Record<string, unknown>;
  direct: Target;
  close(): Promise<void>;
}

export type BackendName = "everything" | "everythinghttp" | "fastmcp" | "mcpuse" | "filesystem" | "memory" | "apps";

function stdioBackend(name: string, command: string, args: string[], env?: Record<string, string>): Backend {
  const entry = { command, args, ...(env ? { env } : {}) };
  return { name, config: entry, direct: entry, close: async () => {} };
}

/** An HTTP server process of ours that prints `LISTENING <url>` when ready. */
async function listeningProcess(command: string, args: string[], what: string): Promise<RunningHttpServer> {
  const child: ChildProcess = spawn(command, args, { detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...TELEMETRY_OFF } });
  let out = "";
  let err = "";
  child.stderr!.on("data", (c) => (err = (err + String(c)).slice(-4000)));
  const close = async () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start in 20 s: ${err}`)), 20_000);
    child.stdout!.on("data", (c) => {
      out += String(c);
      const match = /LISTENING (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}): ${err}`));
    });
  });
  child.stdout!.resume();
  return { url, pid: child.pid!, close };
}

export async function startBackend(name: BackendName, scratch: string): Promise<Backend> {
  const node = process.execPath;
  switch (name) {
    case "everything":
      return { ...stdioBackend(name, everythingStdioCommand().command, everythingStdioCommand().args) };
    case "everythinghttp": {
      const server = await startEverythingHttp();
      return { name, config: { url: server.url }, direct: { url: server.url }, close: server.close };
    }
    case "fastmcp":
      return stdioBackend(name, node, [join(serversDir, "fastmcp-server.mjs")]);
    case "mcpuse": {
      const server = await listeningProcess(await node22(), [join(serversDir, "mcp-use-server.mjs"), String(await freePort())], "mcp-use server");
      return { name, config: { url: server.url }, direct: { url: server.url }, close: server.close };
    }
    case "filesystem":
      // No directory arguments: the server takes its allowed directories from the client's roots.
      return stdioBackend(name, node, [join(modules, "@modelcontextprotocol", "server-filesystem", "dist", "index.js")]);
    case "memory":
      return stdioBackend(name, node, [join(modules, "@modelcontextprotocol", "server-memory", "dist", "index.js")], {
        MEMORY_FILE_PATH: join(scratch, "memory.jsonl"),
      });
    case "apps":
      return stdioBackend(name, node, [join(modules, "@modelcontextprotocol", "server-basic-vanillajs", "dist", "index.js"), "--stdio"]);
  }
}

export function scratchDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), "tnc-interop-"));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Gateway vs direct latency per library and op, printed as one table when the file ends. */
export class Latency {
  private readonly rows = new Map<string, { gateway: number[]; direct: number[] }>();

  add(op: string, via: "gateway" | "direct", reply: Reply): void {
    if (!reply.ok || reply.ms === undefined) return;
    const row = this.rows.get(op) ?? { gateway: [], direct: [] };
    row[via].push(reply.ms);
    this.rows.set(op, row);
  }

  print(library: string): void {
    const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : undefined);
    const table = [...this.rows].map(([op, row]) => {
      const g = median(row.gateway);
      const d = median(row.direct);
      return {
        library,
        op,
        "gateway ms": g === undefined ? "-" : g.toFixed(1),
        "direct ms": d === undefined ? "-" : d.toFixed(1),
        "extra ms": g === undefined || d === undefined ? "-" : (g - d).toFixed(1),
      };
    });
    console.table(table);
  }
}
