// Self-tests of the fixture MCP servers (test/fixtures/): each one is a real child process
// driven by a real SDK v2 client, proving it behaves as its header comment says. The loadMcp
// tests build on these behaviours.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  everythingStdioCommand,
  fixtureCommand,
  isAlive,
  startEverythingHttp,
  startHttpFixture,
  waitForExit,
  type FixtureName,
  type RunningHttpServer,
} from "../fixtures/index";

type Handler = (request: ElicitRequest, ctx: { mcpReq: { signal: AbortSignal } }) => ElicitResult | Promise<ElicitResult>;
type Mode = "legacy" | "auto";

const tmp = mkdtempSync(join(tmpdir(), "fixtures-test-"));
const cleanups: Array<() => Promise<unknown> | unknown> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function newClient(handler?: Handler, mode: Mode = "legacy", elicitation = true): Client {
  const client = new Client(
    { name: "fixture-self-test", version: "1.0.0" },
    { capabilities: elicitation ? { elicitation: { form: {}, url: {} } } : {}, versionNegotiation: { mode } },
  );
  if (handler) client.setRequestHandler("elicitation/create", handler);
  cleanups.push(() => client.close());
  return client;
}

function stdioTransport(name: FixtureName, env: Record<string, string> = {}): StdioClientTransport {
  const { command, args } = fixtureCommand(name);
  return new StdioClientTransport({ command, args, env: { ...process.env, ...env } as Record<string, string>, stderr: "pipe" });
}

async function connectStdio(name: FixtureName, handler?: Handler, opts: { mode?: Mode; env?: Record<string, string> } = {}) {
  const client = newClient(handler, opts.mode);
  const transport = stdioTransport(name, opts.env);
  await client.connect(transport);
  return { client, transport };
}

async function startHttp(start: () => Promise<RunningHttpServer>): Promise<RunningHttpServer> {
  const server = await start();
  cleanups.push(() => server.close());
  return server;
}

function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return content.map((c) => c.text ?? "").join("");
}

const accept = (content: ElicitResult["content"]): Handler => () => ({ action: "accept", content });

describe("modern-elicit over streamable HTTP (2026-07-28 input_required)", () => {
  it("negotiates 2026-07-28 and routes input_required to the one elicitation/create handler", async () => {
    const server = await startHttp(() => startHttpFixture());
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const seen: ElicitRequest["params"][] = [];
    const client = newClient((request) => {
      seen.push(request.params);
      return { action: "accept", content: { region: "apac" } };
    }, "auto");
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");

    const result = await client.callTool({ name: "ask_region", arguments: {} });
    expect(textOf(result)).toBe("region: apac");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      mode: "form",
      message: expect.any(String),
      requestedSchema: { type: "object", properties: { region: { type: "string", enum: ["emea", "apac", "amer"] } } },
    });
  });

  it("reports decline and cancel", async () => {
    const server = await startHttp(() => startHttpFixture());
    let action: "decline" | "cancel" = "decline";
    const client = newClient(() => ({ action }), "auto");
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect(textOf(await client.callTool({ name: "ask_region", arguments: {} }))).toBe("declined");
    action = "cancel";
    expect(textOf(await client.callTool({ name: "ask_region", arguments: {} }))).toBe("cancelled");
  });

  it("cannot elicit from a 2025-era client: per-request legacy serving has no server-to-client channel", async () => {
    const server = await startHttp(() => startHttpFixture());
    let asked = 0;
    const client = newClient(() => {
      asked++;
      return { action: "accept", content: { region: "apac" } };
    }, "legacy");
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect(client.getProtocolEra()).toBe("legacy");
    const result = await client.callTool({ name: "ask_region", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/per-request legacy serving cannot receive server-to-client requests/);
    expect(asked).toBe(0);
  });

  it("close() kills the server process", async () => {
    const server = await startHttpFixture();
    expect(isAlive(server.pid)).toBe(true);
    await server.close();
    expect(await waitForExit(server.pid)).toBe(true);
  });
});

describe("modern-elicit over stdio", () => {
  it("2025 era: the SDK's legacy shim pushes elicitation/create and re-enters the tool", async () => {
    let params: ElicitRequest["params"] | undefined;
    const { client } = await connectStdio("modern-elicit", (request) => {
      params = request.params;
      return { action: "accept", content: { region: "emea" } };
    });
    expect(client.getProtocolEra()).toBe("legacy");
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(textOf(await client.callTool({ name: "ask_region", arguments: {} }))).toBe("region: emea");
    expect(params).toMatchObject({ mode: "form", requestedSchema: { properties: { region: { enum: ["emea", "apac", "amer"] } } } });
  });

  it("auto negotiation over stdio reaches the 2026-07-28 era too (serveStdio)", async () => {
    const { client } = await connectStdio("modern-elicit", accept({ region: "amer" }), { mode: "auto" });
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(textOf(await client.callTool({ name: "ask_region", arguments: {} }))).toBe("region: amer");
  });
});

describe("cancel-elicit", () => {
  it("withdraws its question: the handler's signal aborts and the tool answers `withdrawn`", async () => {
    let signal: AbortSignal | undefined;
    const { client } = await connectStdio("cancel-elicit", (_request, ctx) => {
      signal = ctx.mcpReq.signal;
      return new Promise<ElicitResult>((resolve) => signal!.addEventListener("abort", () => resolve({ action: "cancel" })));
    });
    const started = Date.now();
    const result = await client.callTool({ name: "ask_then_withdraw", arguments: { afterMs: 150 } });
    expect(textOf(result)).toBe("withdrawn");
    expect(signal?.aborted).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
});

describe("crash-mid-question", () => {
  it("answers ping, then dies while its question is pending", async () => {
    let asked = false;
    let signal: AbortSignal | undefined;
    const { client, transport } = await connectStdio("crash-mid-question", (_request, ctx) => {
      asked = true;
      signal = ctx.mcpReq.signal;
      return new Promise<ElicitResult>(() => {}); // never answered: the person is still thinking
    });
    const pid = transport.pid!;
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    expect(textOf(await client.callTool({ name: "ping", arguments: {} }))).toBe("pong");
    await expect(client.callTool({ name: "ask_then_crash", arguments: { afterMs: 150 } })).rejects.toThrow(/Connection closed/);
    expect(asked).toBe(true);
    expect(signal?.aborted).toBe(true);
    expect(closed).toBe(true);
    expect(await waitForExit(pid)).toBe(true);
  });
});

describe("never-initialize", () => {
  it("never answers initialize, so connect() is bounded only by the caller's timeout", async () => {
    const client = newClient();
    const transport = stdioTransport("never-initialize");
    const started = Date.now();
    await expect(client.connect(transport, { timeout: 300 })).rejects.toThrow(/timed out/i);
    expect(Date.now() - started).toBeLessThan(3000);
    const pid = transport.pid;
    await transport.close();
    if (pid) expect(await waitForExit(pid)).toBe(true);
  });
});

describe("grandchild", () => {
  it("reports its own and its grandchild's pid; closing the client alone leaves the grandchild running", async () => {
    const pidsFile = join(tmp, "pids.json");
    const { client, transport } = await connectStdio("grandchild", undefined, { env: { PIDS_FILE: pidsFile } });
    const fromTool = JSON.parse(textOf(await client.callTool({ name: "pids", arguments: {} }))) as { server: number; grandchild: number };
    const fromFile = JSON.parse(readFileSync(pidsFile, "utf8")) as typeof fromTool;
    expect(fromTool).toEqual(fromFile);
    expect(fromTool.server).toBe(transport.pid);
    cleanups.push(() => {
      if (isAlive(fromTool.grandchild)) process.kill(fromTool.grandchild, "SIGKILL");
    });
    expect(isAlive(fromTool.grandchild)).toBe(true);

    await client.close();
    expect(await waitForExit(fromTool.server)).toBe(true);
    // The SDK's transport kills only the child's pid: this is what loadMcp's close() must fix.
    expect(isAlive(fromTool.grandchild)).toBe(true);
  });
});

describe("capabilities", () => {
  it("sees no elicitation capability from a client without a handler", async () => {
    const capsFile = join(tmp, "caps-none.json");
    const client = newClient(undefined, "legacy", false);
    await client.connect(stdioTransport("capabilities", { CAPS_FILE: capsFile }));
    const caps = JSON.parse(textOf(await client.callTool({ name: "client_capabilities", arguments: {} })));
    expect(caps.elicitation).toBeUndefined();
    expect(JSON.parse(readFileSync(capsFile, "utf8"))).toEqual(caps);
  });

  it("sees form and url elicitation when the client advertises them", async () => {
    const capsFile = join(tmp, "caps-elicit.json");
    const { client } = await connectStdio("capabilities", accept({}), { env: { CAPS_FILE: capsFile } });
    const caps = JSON.parse(textOf(await client.callTool({ name: "client_capabilities", arguments: {} })));
    expect(caps.elicitation).toEqual({ form: {}, url: {} });
    expect(JSON.parse(readFileSync(capsFile, "utf8"))).toEqual(caps);
  });
});

describe("paged-tools", () => {
  it("serves 25 tools in pages of 10", async () => {
    const { client } = await connectStdio("paged-tools");
    // listTools() without a cursor walks every page itself.
    const all = await client.listTools();
    expect(all.tools.map((t) => t.name)).toEqual(Array.from({ length: 25 }, (_, i) => `t${String(i + 1).padStart(2, "0")}`));
    expect(all.nextCursor).toBeUndefined();
    const page2 = await client.listTools({ cursor: "10" });
    expect(page2.tools.map((t) => t.name)).toEqual(["t11", "t12", "t13", "t14", "t15", "t16", "t17", "t18", "t19", "t20"]);
    expect(page2.nextCursor).toBe("20");
    const page3 = await client.listTools({ cursor: "20" });
    expect(page3.tools).toHaveLength(5);
    expect(page3.nextCursor).toBeUndefined();
    expect(textOf(await client.callTool({ name: "t17", arguments: {} }))).toBe("t17");
  });
});

describe("flood", () => {
  it("sends its questions concurrently and reports each action in order", async () => {
    let pending = 0;
    let maxPending = 0;
    const release: Array<() => void> = [];
    const { client } = await connectStdio("flood", (request) => {
      pending++;
      maxPending = Math.max(maxPending, pending);
      const index = Number(/Question (\d+)/.exec(request.params.message)?.[1]);
      return new Promise<ElicitResult>((resolve) => {
        release.push(() => {
          pending--;
          resolve(index === 3 ? { action: "cancel" } : index === 4 ? { action: "decline" } : { action: "accept", content: { n: index } });
        });
        // Answer only once every question is in, so the server must have sent them all at once.
        if (release.length === 5) for (const answer of release) answer();
      });
    });
    const result = await client.callTool({ name: "ask_many", arguments: { count: 5 } });
    expect(textOf(result)).toBe("accept,accept,cancel,decline,accept");
    expect(maxPending).toBe(5);
  });
});

describe("slow-tool", () => {
  it("sleeps, and asks after sleeping", async () => {
    let askedAt = 0;
    const { client } = await connectStdio("slow-tool", () => {
      askedAt = Date.now();
      return { action: "accept", content: { ok: true } };
    });
    const started = Date.now();
    expect(textOf(await client.callTool({ name: "sleep", arguments: { ms: 100 } }))).toBe("slept 100");
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    const askStarted = Date.now();
    expect(textOf(await client.callTool({ name: "ask_after", arguments: { ms: 150 } }))).toBe("accept");
    expect(askedAt - askStarted).toBeGreaterThanOrEqual(140);
  });

  it("lets a caller's request timeout fire", async () => {
    const { client } = await connectStdio("slow-tool");
    await expect(client.callTool({ name: "sleep", arguments: { ms: 2000 } }, { timeout: 200 })).rejects.toThrow(/timed out/i);
  });
});

describe("server-everything", () => {
  it("stdio command starts and lists its elicitation tools", async () => {
    const { command, args } = everythingStdioCommand();
    const client = newClient(accept({}));
    await client.connect(new StdioClientTransport({ command, args, stderr: "pipe" }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("trigger-elicitation-request");
  });

  it("streamableHttp runs on a free port and dies with close()", async () => {
    const server = await startEverythingHttp();
    const client = newClient(accept({}));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("trigger-elicitation-request");
    await client.close();
    await server.close();
    expect(await waitForExit(server.pid)).toBe(true);
  });
});
