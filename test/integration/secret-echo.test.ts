// Servers that echo our request headers back (in 4xx/5xx bodies, in tool errors, in JSON-RPC
// errors) against the whole core: real HTTP fixture processes, the Authorization value from a
// keychain secret, a literal API key, and every place a person or an agent could read the echo —
// log lines, the servers view and its events, tool runs and their error envelopes, the gateway's
// replies to an agent. None may hold a secret; each must still say what happened.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createCore, type Core } from "../../src/main/app/core";
import { browserPlatform } from "../../src/main/app/serve";
import { startCompanionServer, type CompanionServer } from "../../src/main/app/companion-server";
import { toEnvelope } from "../../src/main/rpc/envelope";
import { createMemoryStore } from "../../src/main/secrets/memory-store";
import { EVENT_CHANNELS } from "../../src/shared/contract";
import { fixture } from "../fixtures";

const SECRET = "echo-token-VALUE-9f8e7d6c5b4a";
const API_KEY = "literal-key-value-123456";
const HEADERS = { Authorization: "Bearer ${secret:echo-token}", "X-Api-Key": API_KEY };
/** Every form the secrets could take in what we read back. */
const FORBIDDEN = [SECRET, API_KEY, encodeURIComponent(SECRET), Buffer.from(SECRET).toString("base64")];

interface Running {
  url: string;
  child: ChildProcess;
}

function startEcho(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [fixture("echo-headers"), ...args], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`echo-headers ${args.join(" ")} did not start`)), 10_000);
    child.stdout!.on("data", (chunk) => {
      out += String(chunk);
      const match = /^LISTENING (\S+)$/m.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], child });
      }
    });
    child.once("exit", () => reject(new Error("echo-headers exited")));
  });
}

function leaks(text: string): string[] {
  return FORBIDDEN.filter((secret) => text.includes(secret));
}

describe("a server that echoes our headers never gets a secret into a log, a page or an agent", () => {
  const fixtures: Running[] = [];
  const lines: string[] = [];
  const events: string[] = [];
  let core: Core;
  let companion: CompanionServer;

  beforeAll(async () => {
    const [s500, s403json, s401, tools] = await Promise.all([
      startEcho(["--mode", "status:500"]),
      startEcho(["--mode", "status:403", "--json"]),
      startEcho(["--mode", "status:401"]),
      startEcho(["--mode", "tool-error"]),
    ]);
    fixtures.push(s500, s403json, s401, tools);
    const secrets = createMemoryStore("test store");
    await secrets.set("echo-token", SECRET);
    core = await createCore({
      config: {
        mcpServers: {
          // auto: a streamable HTTP attempt, then SSE; auto protocol also probes first.
          "echo-500": { url: s500.url, headers: HEADERS },
          "echo-403": { url: s403json.url, headers: HEADERS, type: "streamable-http", protocol: "legacy" },
          "echo-401": { url: s401.url, headers: HEADERS, protocol: "legacy" },
          "echo-tools": { url: tools.url, headers: HEADERS, type: "streamable-http", protocol: "legacy" },
        },
      },
      platform: browserPlatform,
      secrets,
      log: (line) => lines.push(line),
    });
    for (const channel of EVENT_CHANNELS) core.events.on(channel, (payload) => events.push(JSON.stringify(payload)));
    companion = await startCompanionServer(core, { port: 0, staticDir: mkdtempSync(join(tmpdir(), "tnc-static-")), log: core.log });
  });

  afterAll(async () => {
    await companion?.close();
    await core?.close();
    for (const f of fixtures) f.child.kill("SIGKILL");
  });

  it("the fixtures really echo the secrets (otherwise this test proves nothing)", async () => {
    const response = await fetch(fixtures[0].url, { method: "POST", headers: { authorization: `Bearer ${SECRET}`, "x-api-key": API_KEY }, body: "{}" });
    const body = await response.text();
    expect(response.status).toBe(500);
    expect(body).toContain(SECRET);
    expect(body).toContain(API_KEY);
  });

  it("failed servers say what happened, with the echoed headers redacted", async () => {
    const servers = core.servers();
    const byName = Object.fromEntries(servers.map((s) => [s.name, s]));
    expect(byName["echo-500"].state).toBe("failed");
    expect(byName["echo-403"].state).toBe("failed");
    expect(byName["echo-401"].state).toBe("failed");
    expect(byName["echo-tools"].state).toBe("connected");
    // The echoed body still reads: status, the header names, the scheme; only values are gone.
    expect(byName["echo-403"].error).toContain("HTTP 403");
    expect(byName["echo-403"].error).toContain("[redacted]");
    expect(byName["echo-403"].error).toContain("authorization");
    expect(byName["echo-401"].error).toMatch(/401|[Uu]nauthori[sz]ed/);
    expect(leaks(JSON.stringify(servers))).toEqual([]);
    const listed = await core.handlers["servers:list"](undefined);
    expect(leaks(JSON.stringify(listed))).toEqual([]);
    // Connection failures were logged, scrubbed.
    expect(lines.some((line) => line.includes("[redacted]"))).toBe(true);
  });

  it("a tool run whose error result echoes the headers shows the error without them", async () => {
    const result = await core.handlers["tools:run"]({ tool: "echo-tools_echo_result", args: {} });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("403 from upstream");
    expect(result.output).toContain("authorization: Bearer [redacted]");
    expect(result.output).toContain("x-api-key: [redacted]");
    expect(leaks(JSON.stringify(result))).toEqual([]);
  });

  it("a tool run that fails with a JSON-RPC error echoing the headers gets a scrubbed error envelope", async () => {
    const envelope = await toEnvelope(() => core.handlers["tools:run"]({ tool: "echo-tools_echo_rpc", args: {} }));
    expect(envelope.ok).toBe(false);
    const text = JSON.stringify(envelope);
    expect(text).toContain("upstream refused you");
    expect(text).toContain("[redacted]");
    expect(leaks(text)).toEqual([]);
  });

  it("an agent calling through the gateway gets the echo scrubbed, result and error alike", async () => {
    const agent = new Client({ name: "echo-agent", version: "1.0.0" }, { capabilities: {} });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${companion.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${core.token()}` } } }),
    );
    try {
      const result = await agent.callTool({ name: "echo-tools_echo_result", arguments: {} });
      expect(result.isError).toBe(true);
      const resultText = JSON.stringify(result);
      expect(resultText).toContain("[redacted]");
      expect(leaks(resultText)).toEqual([]);
      const failed = await agent.callTool({ name: "echo-tools_echo_rpc", arguments: {} });
      expect(failed.isError).toBe(true);
      const failedText = JSON.stringify(failed);
      expect(failedText).toContain("upstream refused you");
      expect(leaks(failedText)).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it("the gateway token, old and rotated, never reaches a log line", async () => {
    const old = core.token();
    core.log(`debug: an error quoting the token ${old}`);
    const rotated = (await core.handlers["gateway:rotateToken"](undefined)) as { token: string };
    // The person asked to see the new token: that one result is the exception.
    expect(rotated.token).toBe(core.token());
    core.log(`debug: quoting both ${old} and ${rotated.token}`);
    const all = lines.join("\n");
    expect(all).not.toContain(old);
    expect(all).not.toContain(rotated.token);
    expect(all).toContain("debug: quoting both [redacted] and [redacted]");
  });

  it("no log line and no event any view received holds a secret", () => {
    expect(lines.length).toBeGreaterThan(0);
    expect(events.length).toBeGreaterThan(0);
    expect(lines.flatMap(leaks)).toEqual([]);
    expect(events.flatMap(leaks)).toEqual([]);
    const all = `${lines.join("\n")}\n${events.join("\n")}`;
    expect(all).not.toContain(core.token());
  });
});
