// Browser mode's transport: the same handlers the preload reaches over IPC, carried as
// WsClientMessage / WsServerMessage on one WebSocket per page; every core event is pushed to
// every connected page.
import type { WebSocket } from "ws";
import { EVENT_CHANNELS, INVOKE_CHANNELS, type Envelope, type EventChannel, type EventMap, type InvokeChannel, type WsServerMessage } from "../../shared/contract";
import { errorEnvelope, toEnvelope } from "../rpc/envelope";
import type { Handlers } from "./handlers";
import { jsonBoundsProblem, tryStringify } from "../base/json-bounds";
import { MAX_PAGE_SOCKET_QUEUED_BYTES, MAX_WS_MESSAGE_BYTES, WS_PING_INTERVAL_MS } from "../../shared/limits";
import { errorMessage, isPlainObject } from "../../shared/unknown-value";

/** Whether text is past the bound of one message to a page (counted only when it might be). */
function tooLarge(text: string): boolean {
  return text.length * 3 > MAX_WS_MESSAGE_BYTES && Buffer.byteLength(text) > MAX_WS_MESSAGE_BYTES;
}

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

export interface WsServerOptions {
  /** How often each page is pinged (WS_PING_INTERVAL_MS); tests lower it. */
  pingIntervalMs?: number;
}

const INVOKE = new Set<string>(INVOKE_CHANNELS);

/** Pings every page; one that has not answered the last ping by the next is dropped. Returns the stop. */
function pingPages(sockets: Set<WebSocket>, answered: WeakMap<WebSocket, boolean>, log: (line: string) => void, intervalMs: number): () => void {
  // A page that has not answered the last ping by the next one is gone (a frozen tab, a peer that
  // stopped reading, a connection dropped without a close): its socket would otherwise stay open,
  // and every event would be queued for it until the byte bound below.
  const pinger = setInterval(() => {
    for (const ws of sockets) {
      if (answered.get(ws) === false) {
        log("ws: a page did not answer a ping in time; closing its socket");
        sockets.delete(ws);
        ws.terminate();
        continue;
      }
      answered.set(ws, false);
      try {
        ws.ping();
      } catch {
        sockets.delete(ws);
        ws.terminate();
      }
    }
  }, intervalMs);
  pinger.unref();
  return () => clearInterval(pinger);
}

/** Sends text on an open socket; a socket that closed meanwhile or stopped reading is dropped. */
function textSender(sockets: Set<WebSocket>, log: (line: string) => void): (ws: WebSocket, text: string) => void {
  return (ws, text) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_PAGE_SOCKET_QUEUED_BYTES) {
      log("ws: a page stopped reading; closing its socket");
      ws.terminate();
      return;
    }
    // The callback takes a failed write (the socket closed under us) instead of an 'error' throw.
    ws.send(text, (error) => {
      if (error) sockets.delete(ws);
    });
  };
}

/** The text of one message to a page; a result that cannot go as it is fails its call instead. */
function messageText(message: WsServerMessage, log: (line: string) => void): string | undefined {
  let text = tryStringify(message);
  if (text === undefined && message.t === "result") {
    // A result main cannot serialise (nested too deep) fails that one call, not the socket.
    text = JSON.stringify({
      t: "result",
      id: message.id,
      envelope: { ok: false, error: { code: "failed", message: "The result could not be sent to the page (it is not serialisable JSON)." } },
    } satisfies WsServerMessage);
  }
  if (text !== undefined && message.t === "result" && tooLarge(text)) {
    // Past the bound one message may have, the call fails and the socket lives on.
    log(`ws: a result of ${Buffer.byteLength(text)} bytes is past the ${MAX_WS_MESSAGE_BYTES}-byte bound of one message; refused`);
    text = JSON.stringify({
      t: "result",
      id: message.id,
      envelope: { ok: false, error: { code: "too-large", message: `The result is larger than the ${MAX_WS_MESSAGE_BYTES / 1024 / 1024} MiB one message to the page may be.` } },
    } satisfies WsServerMessage);
  }
  return text;
}

/** One subscription per channel for all pages, serialised once per event; returns the undos. */
function pushEvents(events: WsCore["events"], sockets: Set<WebSocket>, sendText: (ws: WebSocket, text: string) => void, log: (line: string) => void): Array<() => void> {
  return EVENT_CHANNELS.map((channel) =>
    events.on(channel, (payload) => {
      if (sockets.size === 0) return;
      const text = tryStringify({ t: "event", channel, payload } satisfies WsServerMessage);
      if (text === undefined) {
        log(`ws: a ${channel} event could not be serialised for the pages; dropped`);
        return;
      }
      if (tooLarge(text)) {
        log(`ws: a ${channel} event of ${Buffer.byteLength(text)} bytes is past the ${MAX_WS_MESSAGE_BYTES}-byte bound of one message; dropped`);
        return;
      }
      for (const ws of sockets) sendText(ws, text);
    }),
  );
}

/** Closes with a code; the reason is cut to the 123 bytes a close frame can carry (ws throws past it). */
function closeWith(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, Buffer.from(reason).subarray(0, 123).toString("utf8").replace(/\uFFFD$/, ""));
  } catch {
    ws.terminate();
  }
}

/** One message from a page: refused whole when it is not an invoke, else the handler's envelope. */
async function onMessage(handlers: Handlers, ws: WebSocket, data: unknown, send: (ws: WebSocket, message: WsServerMessage) => void): Promise<void> {
  let message: unknown;
  try {
    message = JSON.parse(String(data));
  } catch {
    closeWith(ws, 1007, "Messages must be JSON.");
    return;
  }
  // Before anything is read from it or kept: a message nested too deep could not even be
  // echoed back in an error, and handlers store what they are given.
  const bounds = jsonBoundsProblem(message);
  if (bounds) {
    closeWith(ws, 1009, `Message refused: ${bounds}.`);
    return;
  }
  if (!isPlainObject(message) || message.t !== "invoke" || typeof message.id !== "number" || !Number.isSafeInteger(message.id)) {
    closeWith(ws, 1008, "Expected { t: 'invoke', id, channel, arg }.");
    return;
  }
  const id = message.id;
  const channel = message.channel;
  if (typeof channel !== "string" || !INVOKE.has(channel)) {
    send(ws, { t: "result", id, envelope: { ok: false, error: { code: "unknown-channel", message: `No operation named "${String(channel)}".` } } });
    return;
  }
  const handler = handlers[channel as InvokeChannel] as (arg: unknown) => Promise<unknown>;
  const envelope: Envelope<unknown> = await toEnvelope(() => handler(message.arg)).catch(errorEnvelope);
  send(ws, { t: "result", id, envelope });
}

export function createWsServer(core: WsCore, log: (line: string) => void = () => {}, options: WsServerOptions = {}): WsServer {
  const sockets = new Set<WebSocket>();
  const answered = new WeakMap<WebSocket, boolean>();
  const stopPinging = pingPages(sockets, answered, log, options.pingIntervalMs ?? WS_PING_INTERVAL_MS);
  const sendText = textSender(sockets, log);
  const send = (ws: WebSocket, message: WsServerMessage) => {
    const text = messageText(message, log);
    if (text !== undefined) sendText(ws, text);
  };
  const unsubscribes = pushEvents(core.events, sockets, sendText, log);

  return {
    onSocket(ws) {
      sockets.add(ws);
      answered.set(ws, true);
      ws.on("pong", () => answered.set(ws, true));
      ws.on("message", (data) => {
        // A handler's failure must never become an unhandled rejection (Node exits on one).
        onMessage(core.handlers, ws, data, send).catch((error: unknown) => {
          log(`ws: a page's message failed: ${errorMessage(error)}`);
          closeWith(ws, 1011, "The companion could not handle that message.");
        });
      });
      ws.on("close", () => sockets.delete(ws));
      ws.on("error", () => sockets.delete(ws));
    },
    size: () => sockets.size,
    close() {
      stopPinging();
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const ws of sockets) closeWith(ws, 1001, "The companion is shutting down.");
      sockets.clear();
    },
  };
}
