// Browser mode: CompanionApi over one WebSocket to main at `/ws` on the page's own host.
// The HttpOnly cookie set when the page was opened with ?token=… authenticates the upgrade, so
// the page itself never holds or sends the token.
import type {
  CompanionApi,
  Envelope,
  EventChannel,
  EventMap,
  InvokeChannel,
  WsClientMessage,
  WsServerMessage,
} from "../../shared/contract";
import { INVOKE_CHANNELS } from "../../shared/contract";

export interface WsTransportOptions {
  url?: string;
  /** Injected in tests; the page uses the global WebSocket. */
  WebSocketImpl?: typeof WebSocket;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Subprotocols offered on each (re)connect: a paired device's fresh proof (lib/device.ts). */
  protocols?: () => string[];
}

export interface WsTransport {
  api: CompanionApi;
  /** Called with true on every successful (re)connect after the first, false when the link drops. */
  onConnection(listener: (connected: boolean, reconnected: boolean) => void): () => void;
  close(): void;
}

export function defaultWsUrl(loc: Pick<Location, "protocol" | "host"> = location): string {
  return `${loc.protocol === "https:" ? "wss" : "ws"}://${loc.host}/ws`;
}

export function createWsTransport(options: WsTransportOptions = {}): WsTransport {
  const url = options.url ?? defaultWsUrl();
  const WS = options.WebSocketImpl ?? WebSocket;
  const minDelay = options.minDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 10_000;

  let socket: WebSocket | undefined;
  let nextId = 1;
  let attempt = 0;
  let everConnected = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Invokes made while the link is down wait here and go out on the next open.
  const queue: WsClientMessage[] = [];
  const inflight = new Map<number, (envelope: Envelope<unknown>) => void>();
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(connected: boolean, reconnected: boolean) => void>();

  function settleInflight(): void {
    // We cannot know whether main handled a call whose reply was lost; say so instead of hanging.
    const waiting = new Set(queue.map((m) => m.id));
    for (const [id, resolve] of inflight) {
      if (waiting.has(id)) continue;
      inflight.delete(id);
      resolve({ ok: false, error: { code: "disconnected", message: "The connection to the companion was lost." } });
    }
  }

  function onMessage(raw: unknown): void {
    if (typeof raw !== "string") return;
    let message: WsServerMessage;
    try {
      message = JSON.parse(raw) as WsServerMessage;
    } catch {
      return;
    }
    if (message.t === "result") {
      const resolve = inflight.get(message.id);
      inflight.delete(message.id);
      resolve?.(message.envelope);
    } else if (message.t === "event") {
      for (const listener of listeners.get(message.channel) ?? []) listener(message.payload);
    }
  }

  function connect(): void {
    if (closed) return;
    const ws = options.protocols ? new WS(url, options.protocols()) : new WS(url);
    socket = ws;
    ws.onopen = () => {
      const reconnected = everConnected;
      everConnected = true;
      attempt = 0;
      for (const message of queue.splice(0)) send(ws, message);
      for (const listener of connectionListeners) listener(true, reconnected);
    };
    ws.onmessage = (event) => onMessage(event.data);
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = undefined;
      settleInflight();
      for (const listener of connectionListeners) listener(false, false);
      scheduleReconnect();
    };
    // An error is always followed by close; reconnecting happens there.
    ws.onerror = () => {};
  }

  function scheduleReconnect(): void {
    if (closed) return;
    const base = Math.min(maxDelay, minDelay * 2 ** attempt);
    attempt += 1;
    // Jitter keeps several tabs from reconnecting in lockstep after main restarts.
    timer = setTimeout(connect, base / 2 + Math.random() * (base / 2));
  }

  function send(ws: WebSocket, message: WsClientMessage): void {
    ws.send(JSON.stringify(message));
  }

  function invoke(channel: InvokeChannel, arg: unknown): Promise<Envelope<unknown>> {
    return new Promise((resolve) => {
      if (closed) {
        resolve({ ok: false, error: { code: "closed", message: "The page closed its connection." } });
        return;
      }
      const message: WsClientMessage = { t: "invoke", id: nextId++, channel, arg };
      inflight.set(message.id, resolve);
      if (socket && socket.readyState === WS.OPEN) send(socket, message);
      else queue.push(message);
    });
  }

  const api = {
    on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const wrapped = listener as (payload: unknown) => void;
      set.add(wrapped);
      return () => set.delete(wrapped);
    },
  } as CompanionApi;
  for (const channel of INVOKE_CHANNELS) {
    (api as unknown as Record<string, (arg: unknown) => Promise<Envelope<unknown>>>)[channel] = (arg) => invoke(channel, arg);
  }

  connect();

  return {
    api,
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      socket?.close();
      socket = undefined;
      queue.length = 0;
      settleInflight();
    },
  };
}
