// A stdio server that stops reading its stdin, while the companion keeps writing to it (calls with
// large arguments, in a loop, never awaited). Node would queue every byte without end; the
// companion must keep what waits bounded and stop the server with the reason, and the other
// servers must go on.
import { afterAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { GroupStdioTransport } from "../../../src/main/mcp/connection/stdio-transport";
import { loadMcp } from "../../../src/main/mcp/source";
import type { McpSource } from "../../../src/main/mcp/types";
import { MAX_PEER_QUEUED_BYTES } from "../../../src/shared/limits";
import { fixtureCommand, fixturesDir } from "../../fixtures";
import { becomesTrue } from "../../helpers/poll";
import { outputOf } from "../../helpers/tool-output";

const deaf = { command: process.execPath, args: [join(fixturesDir, "deaf-stdin.mjs")] };
const MIB = 1024 * 1024;

function call(id: number, blob: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name: "sink", arguments: { blob } } } as JSONRPCMessage;
}

/** Starts the deaf server through the transport, initialized, and sends its first call (it stops reading). */
async function deafTransport(options: { maxQueuedBytes?: number; drainDeadlineMs?: number }) {
  const stopped: Error[] = [];
  const transport = new GroupStdioTransport({ ...deaf, env: {}, killGraceMs: 200, onTooLarge: (e) => stopped.push(e), ...options });
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  transport.onerror = () => {};
  const initialized = new Promise<void>((resolve) => (transport.onmessage = () => resolve()));
  await transport.start();
  await transport.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } } as JSONRPCMessage);
  await initialized;
  return { transport, stopped, closed };
}

describe("a stdio server that stops reading its stdin", () => {
  it("is stopped once the bytes waiting pass the bound; what waits stays bounded and later sends fail with the reason", async () => {
    const bound = 2 * MIB;
    const { transport, stopped, closed } = await deafTransport({ maxQueuedBytes: bound });
    const blob = "x".repeat(256 * 1024);
    const sends: Array<Promise<void>> = [];
    let most = 0;
    // 64 MiB offered in a loop; today's send() queued all of it.
    for (let i = 1; i <= 256; i++) {
      sends.push(transport.send(call(i, blob)).catch(() => {}));
      most = Math.max(most, transport.queuedBytes());
    }
    expect(stopped.map((e) => e.message)).toEqual([expect.stringMatching(/^stopped: it stopped reading its input \(2\.\d MiB waiting\)$/)]);
    // At most the bound plus the one message admitted just before it was passed.
    expect(most).toBeLessThanOrEqual(bound + blob.length + 1024);
    await expect(transport.send(call(999, "late"))).rejects.toThrow(/stopped reading its input/);
    await Promise.all(sends);
    await closed;
    expect(transport.exitInfo()).toBeDefined();
  }, 20_000);

  it("is stopped when its full stdin does not drain within the deadline, however little waits", async () => {
    const { transport, stopped, closed } = await deafTransport({ drainDeadlineMs: 500 });
    const started = Date.now();
    const blob = "y".repeat(64 * 1024);
    // Just enough to fill the pipe (64 KiB on Linux) and leave some bytes waiting in the companion.
    for (let i = 1; i <= 8; i++) void transport.send(call(i, blob)).catch(() => {});
    expect(transport.queuedBytes()).toBeLessThan(MAX_PEER_QUEUED_BYTES);
    expect(await becomesTrue(() => stopped.length > 0, 5000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(stopped[0].message).toMatch(/^stopped: it stopped reading its input \(\d+\.\d MiB waiting for 0.5 s\)$/);
    await closed;
  }, 20_000);
});

describe("through the source, with the production bound", () => {
  let source: McpSource | undefined;
  afterAll(async () => {
    await source?.close();
  });

  it("the deaf server fails with the reason; another server still answers", async () => {
    source = await loadMcp({ mcpServers: { deaf, fine: fixtureCommand("hostile-lines") } }, {});
    const sink = source.tools.find((t) => t.name === "deaf_sink");
    const fine = source.tools.find((t) => t.name === "fine_fine");
    expect(sink && fine).toBeTruthy();
    const rssBefore = process.memoryUsage().rss;
    const blob = "z".repeat(MIB);
    // 96 calls of 1 MiB each, fired without waiting (an agent looping over a tool).
    const calls = Array.from({ length: 96 }, () => sink!.execute({ blob }).catch((error: Error) => error));
    const outcomes = await Promise.all(calls);
    for (const outcome of outcomes) expect(String(outcome)).toMatch(/stopped reading its input|not running|closed/);
    expect(await becomesTrue(() => source!.servers().find((s) => s.name === "deaf")?.state === "failed", 5000)).toBe(true);
    const status = source.servers().find((s) => s.name === "deaf");
    expect(status?.error).toMatch(/^stopped: it stopped reading its input \(\d+\.\d MiB waiting\)/);
    // 96 MiB offered; at most the bound plus a message was ever kept for the pipe.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * MIB);
    expect(await outputOf(fine!.execute({}))).toMatchObject({ output: "fine", isError: false });
  }, 30_000);
});
