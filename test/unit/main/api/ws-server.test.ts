import { describe, it, expect, afterEach } from "vitest";
import { WebSocketServer, WebSocket } from "ws";
import { createWsServer, type WsCore } from "../../../../src/main/api/ws-server";
import type { EventChannel, EventMap, WsServerMessage } from "../../../../src/shared/contract";
import type { Handlers } from "../../../../src/main/api/handlers";
import { until } from "../../../helpers/poll";

function fakeCore() {
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const core: WsCore & { emit<E extends EventChannel>(e: E, p: EventMap[E]): void } = {
    handlers: {
      "inbox:list": async () => [],
      "servers:list": async () => {
        throw new Error("servers exploded");
      },
    } as unknown as Handlers,
    events: {
      on(event, listener) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(listener as (p: unknown) => void);
        return () => listeners.get(event)!.delete(listener as (p: unknown) => void);
      },
    },
    emit(event, payload) {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
  };
  return { core, listeners };
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

async function connect(core: WsCore) {
  const server = createWsServer(core);
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  wss.on("connection", (ws) => server.onSocket(ws));
  await new Promise((r) => wss.once("listening", r));
  const port = (wss.address() as { port: number }).port;
  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  const messages: WsServerMessage[] = [];
  client.on("message", (d) => messages.push(JSON.parse(String(d))));
  await new Promise((r) => client.once("open", r));
  cleanups.push(() => {
    client.terminate();
    server.close();
    wss.close();
  });
  const next = (predicate: (m: WsServerMessage) => boolean) => until(() => messages.find(predicate), 2000, () => "no such message");
  const closed = new Promise<{ code: number; reason: string }>((r) => client.once("close", (code, reason) => r({ code, reason: String(reason) })));
  return { server, client, messages, next, closed };
}

describe("ws-server", () => {
  it("answers an invoke with a result envelope", async () => {
    const { core } = fakeCore();
    const { client, next } = await connect(core);
    client.send(JSON.stringify({ t: "invoke", id: 1, channel: "inbox:list", arg: undefined }));
    expect(await next((m) => m.t === "result" && m.id === 1)).toEqual({ t: "result", id: 1, envelope: { ok: true, value: [] } });
  });

  it("turns a throwing handler into an error envelope", async () => {
    const { core } = fakeCore();
    const { client, next } = await connect(core);
    client.send(JSON.stringify({ t: "invoke", id: 2, channel: "servers:list" }));
    expect(await next((m) => m.t === "result" && m.id === 2)).toEqual({
      t: "result",
      id: 2,
      envelope: { ok: false, error: { code: "failed", message: "servers exploded" } },
    });
  });

  it("refuses an unknown channel without closing", async () => {
    const { core } = fakeCore();
    const { client, next } = await connect(core);
    client.send(JSON.stringify({ t: "invoke", id: 3, channel: "shell:exec", arg: "rm -rf /" }));
    expect(await next((m) => m.t === "result" && m.id === 3)).toMatchObject({ envelope: { ok: false, error: { code: "unknown-channel" } } });
    expect(client.readyState).toBe(WebSocket.OPEN);
  });

  it("pushes every core event to every page", async () => {
    const { core } = fakeCore();
    const a = await connect(core);
    core.emit("inbox:focus", { id: "q9" });
    expect(await a.next((m) => m.t === "event")).toEqual({ t: "event", channel: "inbox:focus", payload: { id: "q9" } });
  });

  it("closes a socket that sends something that is not JSON or not an invoke", async () => {
    const { core } = fakeCore();
    const a = await connect(core);
    a.client.send("not json");
    expect((await a.closed).code).toBe(1007);
    const b = await connect(core);
    b.client.send(JSON.stringify({ t: "hello" }));
    expect((await b.closed).code).toBe(1008);
  });

  it("unsubscribes from the core on close", async () => {
    const { core, listeners } = fakeCore();
    const { server } = await connect(core);
    expect([...listeners.values()].every((s) => s.size === 1)).toBe(true);
    server.close();
    expect([...listeners.values()].every((s) => s.size === 0)).toBe(true);
  });
});
