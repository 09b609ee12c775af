// Property over a real page socket: whatever a page sends on /ws (any text, JSON nested
// thousands of levels deep, invokes with hostile arguments), the socket answers or closes with a
// code, nothing rejects unhandled, and the listener keeps serving other pages.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../src/main/app/core";
import { startCompanionServer, type CompanionServer } from "../../src/main/app/companion-server";
import { browserPlatform } from "../../src/main/app/serve";

// Channels whose effects stay in this test (rotating the token or writing secrets would not).
const CHANNELS = ["inbox:list", "inbox:answer", "servers:list", "tools:run", "forms:check", "tools:check", "url:open", "settings:get"];

let core: Core;
let server: CompanionServer;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  const dir = mkdtempSync(join(tmpdir(), "tnc-fuzz-ws-"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>ws</title>");
  core = await createCore({ config: { mcpServers: {} }, platform: browserPlatform });
  server = await startCompanionServer(core, { port: 0, staticDir: dir });
});
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await core?.close();
});

function open(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, { headers: { authorization: `Bearer ${core.token()}` } });
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** Sends one message; resolves with the reply, or the close code if the socket was closed instead. */
function exchange(ws: WebSocket, text: string): Promise<{ reply?: unknown; closed?: number }> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({}), 2000);
    const done = (value: { reply?: unknown; closed?: number }) => {
      clearTimeout(timer);
      ws.off("message", onMessage);
      ws.off("close", onClose);
      resolve(value);
    };
    const onMessage = (data: Buffer) => {
      const parsed = JSON.parse(String(data)) as { t: string };
      if (parsed.t === "result") done({ reply: parsed });
    };
    const onClose = (code: number) => done({ closed: code });
    ws.on("message", onMessage);
    ws.on("close", onClose);
    ws.send(text);
  });
}

const deepJson = fc.integer({ min: 65, max: 20_000 }).map((n) => `{"t":"invoke","id":1,"channel":"inbox:list","arg":${"[".repeat(n)}${"]".repeat(n)}}`);
const invoke = fc.record({
  t: fc.constant("invoke"),
  id: fc.integer({ min: 0, max: 1e6 }),
  channel: fc.oneof(fc.constantFrom(...CHANNELS), fc.string({ maxLength: 20 })),
  arg: fc.jsonValue({ maxDepth: 6 }),
}).map((m) => JSON.stringify(m));
const message = fc.oneof(fc.string({ maxLength: 200 }), deepJson, invoke, fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v)));

describe("WS message properties", () => {
  it("every message gets a result or a close with a code; the listener lives on", async () => {
    let ws = await open();
    await fc.assert(
      fc.asyncProperty(message, async (text) => {
        if (ws.readyState !== ws.OPEN) ws = await open();
        const outcome = await exchange(ws, text);
        expect(outcome.reply !== undefined || outcome.closed !== undefined).toBe(true);
        if (outcome.closed !== undefined) expect([1007, 1008, 1009, 1011]).toContain(outcome.closed);
      }),
      { numRuns: 150, interruptAfterTimeLimit: 8000 },
    );
    ws.close();
    const fresh = await open();
    const listed = await exchange(fresh, JSON.stringify({ t: "invoke", id: 7, channel: "inbox:list" }));
    expect(listed.reply).toMatchObject({ t: "result", id: 7, envelope: { ok: true } });
    fresh.close();
    expect(unhandled).toEqual([]);
  });

  it("a message nested 10k levels deep closes that socket with 1009 and the reason", async () => {
    const ws = await open();
    const reason = new Promise<string>((resolve) => ws.once("close", (_code, why) => resolve(`${_code} ${String(why)}`)));
    ws.send(`{"t":"invoke","id":1,"channel":"inbox:list","arg":${"[".repeat(10_000)}${"]".repeat(10_000)}}`);
    expect(await reason).toMatch(/^1009 .*nested more than 64 levels/);
    expect(unhandled).toEqual([]);
  });
});
