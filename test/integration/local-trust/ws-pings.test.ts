// A page's WebSocket whose peer never answers pings (a frozen tab, a connection dropped without a
// close, a client that stopped reading) is terminated; a peer that answers stays connected.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startListener, type Listener } from "../../../src/main/http/listener";
import { createWsServer, type WsCore, type WsServer } from "../../../src/main/api/ws-server";
import { becomesTrue } from "../../helpers/becomes-true";

const TOKEN = "ws-pings-token";
const PING_MS = 200;
let listener: Listener;
let pages: WsServer;
const lines: string[] = [];

beforeAll(async () => {
  const core: WsCore = { handlers: {} as WsCore["handlers"], events: { on: () => () => {} } };
  pages = createWsServer(core, (line) => lines.push(line), { pingIntervalMs: PING_MS });
  listener = await startListener({ port: 0, token: () => TOKEN, staticDir: mkdtempSync(join(tmpdir(), "tnc-ws-")), onSocket: (ws) => pages.onSocket(ws) });
});
afterAll(async () => {
  pages.close();
  await listener.close();
});

function open(autoPong: boolean): Promise<{ ws: WebSocket; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let closed = false;
    const ws = new WebSocket(`ws://127.0.0.1:${listener.port}/ws`, { headers: { authorization: `Bearer ${TOKEN}` }, autoPong });
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
    expect(await becomesTrue(deaf.closed, 4 * PING_MS + 500)).toBe(true);
    expect(lines.join("\n")).toMatch(/a page did not answer a ping in time/);
    // Several more intervals later, the answering page is still there.
    await new Promise((r) => setTimeout(r, 3 * PING_MS));
    expect(live.closed()).toBe(false);
    expect(pages.size()).toBe(1);
    live.ws.close();
  });
});
