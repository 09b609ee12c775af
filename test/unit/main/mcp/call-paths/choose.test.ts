// Which call path a connection's tool calls take (src/main/mcp/call-paths/choose.ts): picked once,
// when the connection connects, by era and transport; the per-call rules (progress asked for, a
// tool with an output schema) are the picked path's own, so the connection never branches again.
import { join } from "node:path";
import { StreamableHTTPClientTransport, type Client, type OAuthClientProvider, type Transport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { chooseCallPath, type PathChoice } from "../../../../../src/main/mcp/call-paths/choose";
import { loadMcp } from "../../../../../src/main/mcp/source";
import type { McpSource } from "../../../../../src/main/mcp/types";
import { fixturesDir } from "../../../../fixtures";
import { outputOf } from "../../../../helpers/tool-output";

vi.mock("../../../../../src/main/mcp/call-paths/choose", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../../../../src/main/mcp/call-paths/choose")>();
  return { ...actual, chooseCallPath: vi.fn(actual.chooseCallPath) };
});

const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";

/** A client that answers every callTool itself ("sdk"), at the negotiated version given. */
function fakeClient(version: string | undefined) {
  return {
    getNegotiatedProtocolVersion: () => version,
    callTool: vi.fn(async () => ({ content: [{ type: "text", text: "sdk" }] })),
    notification: vi.fn(async () => {}),
  };
}

/** A stdio-like transport whose server answers each tools/call it is sent with "raw". */
function fakeTransport(): Transport & { sent: Record<string, unknown>[] } {
  const sent: Record<string, unknown>[] = [];
  const transport = {
    sent,
    onmessage: undefined as Transport["onmessage"],
    start: async () => {},
    close: async () => {},
    send: async (message: unknown) => {
      const m = message as Record<string, unknown>;
      sent.push(m);
      queueMicrotask(() => transport.onmessage?.({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "raw" }] } } as never));
    },
  };
  return transport as unknown as Transport & { sent: Record<string, unknown>[] };
}

function choice(kind: PathChoice["kind"], version: string | undefined, extra: Partial<PathChoice> = {}): PathChoice {
  return { kind, client: fakeClient(version) as unknown as Client, transport: fakeTransport(), server: "s", maxWait: 60_000, plain: () => true, ...extra };
}

const streamable = () => new StreamableHTTPClientTransport(new URL("http://127.0.0.1:9/mcp"));
const http = { url: new URL("http://127.0.0.1:9/mcp"), headers: {} };

describe("chooseCallPath", () => {
  it("a legacy-era stdio session: the raw stdio path", () => {
    expect(chooseCallPath(choice("stdio", LEGACY)).kind).toBe("stdio-raw");
  });

  it("a legacy-era streamable HTTP session without DPoP: the fast path", () => {
    expect(chooseCallPath(choice("streamable-http", LEGACY, { transport: streamable(), http })).kind).toBe("http-fast");
    const signedIn = { tokens: async () => ({ access_token: "t", token_type: "Bearer" }) } as unknown as OAuthClientProvider;
    expect(chooseCallPath(choice("streamable-http", LEGACY, { transport: streamable(), http: { ...http, authProvider: signedIn } })).kind).toBe("http-fast");
  });

  it("the SDK everywhere else: the 2026-07-28 wire, DPoP, SSE, no version yet", () => {
    expect(chooseCallPath(choice("stdio", MODERN)).kind).toBe("sdk");
    expect(chooseCallPath(choice("streamable-http", MODERN, { transport: streamable(), http })).kind).toBe("sdk");
    const dpop = { dpop: {}, tokens: async () => undefined } as unknown as OAuthClientProvider;
    expect(chooseCallPath(choice("streamable-http", LEGACY, { transport: streamable(), http: { ...http, authProvider: dpop } })).kind).toBe("sdk");
    expect(chooseCallPath(choice("sse", LEGACY)).kind).toBe("sdk");
    expect(chooseCallPath(choice("stdio", undefined)).kind).toBe("sdk");
  });

  it("the raw path takes the plain calls and hands the rest to the SDK, read per call", async () => {
    const typed = new Set(["typed"]);
    const setting = choice("stdio", LEGACY, { plain: (tool) => !typed.has(tool) });
    const client = setting.client as unknown as ReturnType<typeof fakeClient>;
    const transport = setting.transport as ReturnType<typeof fakeTransport>;
    const path = chooseCallPath(setting);
    const signal = new AbortController().signal;

    expect(await path.call("echo", { a: 1 }, signal)).toEqual({ content: [{ type: "text", text: "raw" }] });
    expect(transport.sent).toEqual([{ jsonrpc: "2.0", id: "tnc-1", method: "tools/call", params: { name: "echo", arguments: { a: 1 } } }]);
    expect(client.callTool).not.toHaveBeenCalled();

    // Progress asked for, or an output schema to check: the SDK's path, through the same object.
    expect(await path.call("echo", {}, signal, { progressToken: "call-1" })).toEqual({ content: [{ type: "text", text: "sdk" }] });
    expect(client.callTool).toHaveBeenLastCalledWith({ name: "echo", arguments: {}, _meta: { progressToken: "call-1" } }, expect.objectContaining({ signal }));
    expect(await path.call("typed", {}, signal)).toEqual({ content: [{ type: "text", text: "sdk" }] });
    expect(transport.sent).toHaveLength(1);

    // A tools list that drops the schema changes the rule, not the path.
    typed.clear();
    expect(await path.call("typed", {}, signal)).toEqual({ content: [{ type: "text", text: "raw" }] });
    expect(transport.sent).toHaveLength(2);
  });
});

describe("a connection", () => {
  let source: McpSource | undefined;
  afterEach(async () => {
    await source?.close();
    source = undefined;
  });

  it("picks its call path once, when it connects, and every call takes it", async () => {
    const chosen = vi.mocked(chooseCallPath);
    chosen.mockClear();
    const command = { command: process.execPath, args: [join(fixturesDir, "http-calls.mjs"), "--stdio"] };
    source = await loadMcp({ mcpServers: { calls: command } });
    expect(source.servers()[0]).toMatchObject({ state: "connected", transport: "stdio" });
    expect(chosen).toHaveBeenCalledTimes(1);
    expect(chosen.mock.results[0].value).toMatchObject({ kind: "stdio-raw" });

    const tool = (name: string) => source!.tools.find((t) => t.tool === name)!;
    await expect(outputOf(tool("echo").execute({ text: "a" }))).resolves.toMatchObject({ output: "echo: a" });
    await expect(outputOf(tool("typed").execute({}))).resolves.toMatchObject({ output: '{"n":1}' });
    await expect(outputOf(tool("echo").execute({ text: "b" }, { onprogress: () => {} }))).resolves.toMatchObject({ output: "echo: b" });
    expect(chosen).toHaveBeenCalledTimes(1);
    // The plain call went raw (our string id), the typed one and the one with progress through the SDK.
    const seen = JSON.parse((await outputOf(tool("calls").execute({}))).output) as { ids: unknown[] };
    expect(seen.ids.map((id) => typeof id)).toEqual(["string", "number", "number"]);
  }, 20_000);
});
