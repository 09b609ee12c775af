// Whatever writes an agent's entry — the CLI from the source checkout, or browser mode running
// its bundle (out/<folder>/serve.js) through the Agents view's handlers — writes a command that
// runs from where the companion is installed. Each command is run exactly as written, through an
// MCP client like the agent's, and must reach the running companion and list its tools. (Bundled,
// a path made relative to one source file's import.meta.url lands one folder above the checkout.)
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServe, cli, ECHO, headlessEnv, startServe, type Running } from "./serve-harness";

interface Entry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

let build: ReturnType<typeof buildServe>;
let dir: string;
let companion: Running;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  build = buildServe("serve-agents-path");
  dir = await mkdtemp(join(tmpdir(), "tnc-agents-path-"));
  const config = join(dir, "mcp.json");
  await writeFile(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [ECHO] } } }));
  // No `toolnexus-companion` on PATH: the writers must spell out node and the launcher's path.
  env = headlessEnv(dir, { PATH: "/usr/bin:/bin" });
  companion = await startServe(build.bundle, config, env);
}, 90_000);

afterAll(async () => {
  await companion?.stop();
  build?.remove();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** One call on the page's WebSocket (the same handlers the Agents view uses). */
async function invoke(channel: string, arg: unknown): Promise<unknown> {
  const ws = new WebSocket(`${companion.url.replace("http", "ws")}/ws`, { headers: { authorization: `Bearer ${companion.token}` } });
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    return await new Promise((resolve, reject) => {
      ws.on("message", (data) => {
        const message = JSON.parse(String(data)) as { t: string; id?: number; envelope?: { ok: boolean; value?: unknown; error?: { message: string } } };
        if (message.t !== "result" || message.id !== 1) return;
        if (message.envelope!.ok) resolve(message.envelope!.value);
        else reject(new Error(message.envelope!.error!.message));
      });
      ws.send(JSON.stringify({ t: "invoke", id: 1, channel, arg }));
    });
  } finally {
    ws.close();
  }
}

async function cursorEntry(home: string): Promise<Entry> {
  const file = JSON.parse(await readFile(join(home, ".cursor", "mcp.json"), "utf8")) as { mcpServers: Record<string, Entry> };
  return file.mcpServers.toolnexus;
}

/** Starts the entry the way Cursor would and lists the gateway's tools through it. */
async function toolsThrough(entry: Entry): Promise<string[]> {
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: { ...env, ...(entry.env ?? {}) } as Record<string, string>, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name: "cursor-stand-in", version: "1.0.0" });
  try {
    await client.connect(transport);
    return (await client.listTools()).tools.map((t) => t.name);
  } catch (error) {
    throw new Error(`${entry.command} ${entry.args.join(" ")} did not serve MCP: ${(error as Error).message}; stderr: ${stderr}`);
  } finally {
    await client.close().catch(() => {});
  }
}

describe("the command an agent's entry runs", () => {
  it("written by the CLI from the source checkout runs and reaches the companion", async () => {
    await mkdir(join(dir, ".cursor"), { recursive: true });
    const wrote = await cli(["agents", "connect", "cursor"], { ...env, TOOLNEXUS_COMPANION_URL: companion.url });
    expect(wrote.code, wrote.stderr).toBe(0);
    const entry = await cursorEntry(dir);
    expect(entry.command).toBe("node");
    expect(await toolsThrough(entry)).toContain("echo_started_with");
    await cli(["agents", "disconnect", "cursor"], { ...env, TOOLNEXUS_COMPANION_URL: companion.url });
  }, 60_000);

  it("written by the bundled browser mode through the Agents view's handlers runs and reaches the companion", async () => {
    const plan = (await invoke("agents:plan", { agent: "cursor", connect: true })) as { fingerprint: string };
    await invoke("agents:apply", { agent: "cursor", connect: true, fingerprint: plan.fingerprint });
    const entry = await cursorEntry(dir);
    expect(entry.args.slice(-3)).toEqual(["connect", "--agent", "cursor"]);
    expect(await toolsThrough(entry)).toContain("echo_started_with");
  }, 60_000);
});
