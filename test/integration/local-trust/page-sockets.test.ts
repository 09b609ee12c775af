// A page's WebSocket whose peer never answers pings (a frozen tab, a connection dropped without a
// close, a client that stopped reading) is terminated; a peer that answers stays connected. A page
// that stops reading while events keep coming is terminated at the byte bound, not buffered for.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startListener, type Listener } from "../../../src/main/http/listener";
import { createWsServer, type WsCore, type WsServer } from "../../../src/main/api/ws-server";
import { MAX_PAGE_SOCKET_QUEUED_BYTES } from "../../../src/shared/limits";
import { becomesTrue } from "../../helpers/poll";

const TOKEN = "page-sockets-token";
const PING_MS = 200;
let listener: Listener;
let pages: WsServer;
const lines: string[] = [];
const listeners = new Set<(payload: unknown) => void>();
const core: WsCore = {
  handlers: {} as WsCore["handlers"],
  events: {
    on: (channel, listener) => {
      if (channel !== "inbox:event") return () => {};
      const l = listener as (payload: unknown) => void;
      listeners.add(l);
      return () => listeners.delete(l);
    },
  },
};

beforeAll(async () => {
  pages = createWsServer(core, (line) => lines.push(line), { pingIntervalMs: PING_MS });
  listener = await startListener({ port: 0, token: () => TOKEN, staticDir: mkdtempSync(join(tmpdir(), "tnc-ws-")), onSocket: (ws) => pages.onSocket(ws) });
});
afterAll(async () => {
  pages.close();
  await listener.close();
});

function open(autoPong: boolean, port = listener.port): Promise<{ ws: WebSocket; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let closed = false;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { authorization: `Bearer ${TOKEN}` }, autoPong });
    ws.on("close", () => (closed = true));
    ws.once("open", () => resolve({ ws, closed: () => closed }));
    ws.once("error", reject);
  });
}

describe("page sockets are pinged", () => {
  it("a peer that never answers is terminated within two ping intervals; one that answers stays", async () => {
    const deaf = await open(false);
    const live = await open(true);
    expect(pages.size()).toBe(2);
    expect(await becomesTrue(deaf.closed, 10 * PING_MS)).toBe(true);
    expect(lines.join("\n")).toMatch(/a page did not answer a ping in time/);
    // Several more intervals later, the answering page is still there.
    await new Promise((r) => setTimeout(r, 3 * PING_MS));
    expect(live.closed()).toBe(false);
    expect(pages.size()).toBe(1);
    live.ws.close();
  });

  it("a page that stops reading while events keep coming is terminated at the byte bound", async () => {
    // Pings a minute apart, so only the byte bound can end this page within the test.
    const slowPings = createWsServer(core, (line) => lines.push(line), { pingIntervalMs: 60_000 });
    const second = await startListener({ port: 0, token: () => TOKEN, staticDir: mkdtempSync(join(tmpdir(), "tnc-ws-")), onSocket: (ws) => slowPings.onSocket(ws) });
    const page = await open(true, second.port);
    page.ws.pause();
    const payload = { type: "withdrawn", id: "x".repeat(1024 * 1024) };
    const before = process.memoryUsage().rss;
    // Four times the bound offered, faster than any ping interval could catch it.
    for (let i = 0; i < (4 * MAX_PAGE_SOCKET_QUEUED_BYTES) / (1024 * 1024) && !page.closed(); i++) {
      for (const l of listeners) l(payload);
      await new Promise((r) => setImmediate(r));
    }
    expect(await becomesTrue(() => lines.some((l) => l.includes("a page stopped reading")), 3000)).toBe(true);
    expect(process.memoryUsage().rss - before).toBeLessThan(3 * MAX_PAGE_SOCKET_QUEUED_BYTES);
    page.ws.resume();
    expect(await becomesTrue(page.closed, 3000)).toBe(true);
    slowPings.close();
    await second.close();
  });
});
