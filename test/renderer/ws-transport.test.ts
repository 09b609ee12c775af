// @vitest-environment node
// The browser transport against a real WebSocket server (the `ws` package) speaking the contract's
// WsClientMessage / WsServerMessage: invoke round trips, pushed events, queued calls, reconnects.
import { describe, it, expect, afterEach } from "vitest";
import { WebSocketServer, WebSocket as NodeWebSocket } from "ws";
import type { AddressInfo } from "node:net";
import { createWsTransport, defaultWsUrl, type WsTransport } from "../../src/renderer/lib/ws-transport";
import type { WsClientMessage, WsServerMessage } from "../../src/shared/contract";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function server(port = 0): Promise<{ wss: WebSocketServer; url: string; received: WsClientMessage[] }> {
  return new Promise((resolve) => {
    const wss = new WebSocketServer({ host: "127.0.0.1", port, path: "/ws" });
    const received: WsClientMessage[] = [];
    wss.on("connection", (socket) => {
      socket.on("message", (raw) => {
        const message = JSON.parse(String(raw)) as WsClientMessage;
        received.push(message);
        const reply: WsServerMessage = { t: "result", id: message.id, envelope: { ok: true, value: { echo: message.channel, arg: message.arg } } };
        socket.send(JSON.stringify(reply));
      });
    });
    wss.on("listening", () => {
      const { port: p } = wss.address() as AddressInfo;
      cleanups.push(() => wss.close());
      resolve({ wss, url: `ws://127.0.0.1:${p}/ws`, received });
    });
  });
}

function transport(url: string): WsTransport {
  const t = createWsTransport({ url, WebSocketImpl: NodeWebSocket as unknown as typeof WebSocket, minDelayMs: 20, maxDelayMs: 100 });
  cleanups.push(() => t.close());
  return t;
}

describe("ws-transport", () => {
  it("derives the /ws url from the page's location", () => {
    expect(defaultWsUrl({ protocol: "http:", host: "127.0.0.1:7315" })).toBe("ws://127.0.0.1:7315/ws");
    expect(defaultWsUrl({ protocol: "https:", host: "example.test" })).toBe("wss://example.test/ws");
  });

  it("queues calls until open, then matches each result to its call by id", async () => {
    const { url, received } = await server();
    const t = transport(url);
    const [a, b] = await Promise.all([t.api["inbox:list"](), t.api["tools:run"]({ tool: "x", args: { n: 1 } })]);
    expect(a).toEqual({ ok: true, value: { echo: "inbox:list" } });
    expect(b).toEqual({ ok: true, value: { echo: "tools:run", arg: { tool: "x", args: { n: 1 } } } });
    expect(received.map((m) => [m.t, m.id])).toEqual([
      ["invoke", 1],
      ["invoke", 2],
    ]);
  });

  it("delivers pushed events to subscribers until they unsubscribe", async () => {
    const { wss, url } = await server();
    const t = transport(url);
    const seen: unknown[] = [];
    const off = t.api.on("inbox:focus", (p) => seen.push(p));
    await t.api["settings:get"]();
    const push = (id: string) => {
      for (const client of wss.clients) client.send(JSON.stringify({ t: "event", channel: "inbox:focus", payload: { id } }));
    };
    push("a");
    await new Promise((r) => setTimeout(r, 50));
    off();
    push("b");
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([{ id: "a" }]);
  });

  it("settles calls lost with the connection, reconnects, and reports the reconnect", async () => {
    const first = await server();
    const port = Number(new URL(first.url).port);
    // A server that never answers, so the call is in flight when the link drops.
    first.wss.removeAllListeners("connection");
    const t = transport(first.url);
    const states: [boolean, boolean][] = [];
    t.onConnection((connected, reconnected) => states.push([connected, reconnected]));
    await new Promise((r) => setTimeout(r, 50));
    const lost = t.api["inbox:list"]();
    await new Promise((r) => setTimeout(r, 20));
    for (const client of first.wss.clients) client.terminate();
    await new Promise<void>((r) => first.wss.close(() => r()));
    expect(await lost).toMatchObject({ ok: false, error: { code: "disconnected" } });

    await server(port);
    await expect.poll(() => states.at(-1), { timeout: 3000 }).toEqual([true, true]);
    expect(states[0]).toEqual([true, false]);
    expect(states).toContainEqual([false, false]);
    expect(await t.api["inbox:list"]()).toEqual({ ok: true, value: { echo: "inbox:list" } });
  });
});
