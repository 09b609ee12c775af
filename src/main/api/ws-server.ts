// Browser mode's transport: the same handlers the preload reaches over IPC, carried as
// WsClientMessage / WsServerMessage on one WebSocket per page; every core event is pushed to
// every connected page.
import type { WebSocket } from "ws";
import { EVENT_CHANNELS, INVOKE_CHANNELS, type Envelope, type EventChannel, type EventMap, type InvokeChannel, type WsServerMessage } from "../../shared/contract";
import { errorEnvelope, toEnvelope } from "./envelope";
import type { Handlers } from "./handlers";
import { isPlainObject } from "./validate";

export interface WsCore {
  handlers: Handlers;
  events: { on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void };
}

export interface WsServer {
  /** Give it each authenticated socket (the listener's onSocket). */
  onSocket(ws: WebSocket): void;
  /** How many pages are connected. */
  size(): number;
  close(): void;
}

const INVOKE = new Set<string>(INVOKE_CHANNELS);
// A page that stops reading must not make main buffer events without end.
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

export function createWsServer(core: WsCore, log: (line: string) => void = () => {}): WsServer {
  const sockets = new Set<WebSocket>();

  const send = (ws: WebSocket, message: WsServerMessage) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      log("ws: a page stopped reading; closing its socket");
      ws.terminate();
      return;
    }
    ws.send(JSON.stringify(message));
  };

  // One subscription per channel for all pages, serialised once per event.
  const unsubscribes = EVENT_CHANNELS.map((channel) =>
    core.events.on(channel, (payload) => {
      if (sockets.size === 0) return;
      const text = JSON.stringify({ t: "event", channel, payload } satisfies WsServerMessage);
      for (const ws of sockets) {
        if (ws.readyState !== ws.OPEN) continue;
        if (ws.bufferedAmount > MAX_BUFFERED_BYTES) ws.terminate();
        else ws.send(text);
      }
    }),
  );

  async function onMessage(ws: WebSocket, data: unknown): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(String(data));
    } catch {
      ws.close(1007, "Messages must be JSON.");
      return;
    }
    if (!isPlainObject(message) || message.t !== "invoke" || typeof message.id !== "number" || !Number.isSafeInteger(message.id)) {
      ws.close(1008, "Expected { t: 'invoke', id, channel, arg }.");
      return;
    }
    const id = message.id;
    const channel = message.channel;
    if (typeof channel !== "string" || !INVOKE.has(channel)) {
      send(ws, { t: "result", id, envelope: { ok: false, error: { code: "unknown-channel", message: `No operation named "${String(channel)}".` } } });
      return;
    }
    const handler = core.handlers[channel as InvokeChannel] as (arg: unknown) => Promise<unknown>;
    const envelope: Envelope<unknown> = await toEnvelope(() => handler(message.arg)).catch(errorEnvelope);
    send(ws, { t: "result", id, envelope });
  }

  return {
    onSocket(ws) {
      sockets.add(ws);
      ws.on("message", (data) => {
        void onMessage(ws, data);
      });
      ws.on("close", () => sockets.delete(ws));
      ws.on("error", () => sockets.delete(ws));
    },
    size: () => sockets.size,
    close() {
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const ws of sockets) ws.close(1001, "The companion is shutting down.");
      sockets.clear();
    },
  };
}
