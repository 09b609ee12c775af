// Every invoke channel is registered once, through one wrapper that checks the sender, and every
// core event is forwarded to our window. The allow-list is the contract's INVOKE_CHANNELS.
import type { IpcMain, IpcMainInvokeEvent } from "electron";
import { EVENT_CHANNELS, INVOKE_CHANNELS, type Envelope, type EventChannel, type EventMap, type InvokeChannel } from "../../shared/contract";
import { toEnvelope } from "../rpc/envelope";
import { isTrustedSender, type SenderInfo } from "./guards";
import type { DesktopCore, DesktopHandlers } from "./types";

export type IpcMainLike = Pick<IpcMain, "handle" | "removeHandler">;

const KNOWN_INVOKE: ReadonlySet<string> = new Set(INVOKE_CHANNELS);

export function isInvokeChannel(channel: unknown): channel is InvokeChannel {
  return typeof channel === "string" && KNOWN_INVOKE.has(channel);
}

/** What the sender check needs from an invoke event; a frame that is gone reports a null url. */
export function senderInfo(event: Pick<IpcMainInvokeEvent, "sender" | "senderFrame">): SenderInfo {
  const frame = event.senderFrame;
  let frameUrl: string | null = null;
  let isMainFrame = false;
  try {
    if (frame) {
      frameUrl = frame.url;
      isMainFrame = frame.parent === null;
    }
  } catch {
    // Touching a destroyed frame throws; treat it as an untrusted sender.
  }
  return { webContentsId: event.sender.id, frameUrl, isMainFrame };
}

export interface IpcOptions {
  /** Our window's WebContents id right now (undefined while there is no window). */
  ourWebContentsId: () => number | undefined;
  appUrl: string;
  log?: (line: string) => void;
}

export type InvokeListener = (event: Pick<IpcMainInvokeEvent, "sender" | "senderFrame">, arg: unknown) => Promise<Envelope<unknown>>;

/** The wrapper around one handler: sender check, then the handler, then an Envelope. */
function guardedHandler(channel: InvokeChannel, handler: (arg: unknown) => Promise<unknown>, options: IpcOptions): InvokeListener {
  return async (event, arg) => {
    const sender = senderInfo(event);
    if (!isTrustedSender(sender, { webContentsId: options.ourWebContentsId(), appUrl: options.appUrl })) {
      options.log?.(`ipc: refused ${channel} from webContents ${sender.webContentsId} (${sender.frameUrl ?? "no frame"})`);
      return { ok: false, error: { code: "forbidden", message: "this page may not call the companion" } };
    }
    return toEnvelope(() => handler(arg));
  };
}

/** Registers `handler` for one known channel. Unknown channels are a programming error. */
export function handle(ipcMain: IpcMainLike, channel: InvokeChannel, handler: (arg: unknown) => Promise<unknown>, options: IpcOptions): void {
  if (!isInvokeChannel(channel)) throw new Error(`unknown invoke channel: ${String(channel)}`);
  ipcMain.handle(channel, guardedHandler(channel, handler, options));
}

/** Registers every contract channel from the core's handler map; returns the undo. */
export function registerHandlers(ipcMain: IpcMainLike, handlers: DesktopHandlers, options: IpcOptions): () => void {
  for (const channel of INVOKE_CHANNELS) {
    const handler = handlers[channel];
    if (typeof handler !== "function") throw new Error(`core has no handler for ${channel}`);
    handle(ipcMain, channel, (arg) => handler(arg), options);
  }
  return () => {
    for (const channel of INVOKE_CHANNELS) ipcMain.removeHandler(channel);
  };
}

/** Forwards every contract event from the core to the page; returns the undo. */
export function forwardEvents(
  events: DesktopCore["events"],
  send: <E extends EventChannel>(channel: E, payload: EventMap[E]) => void,
): () => void {
  const offs = EVENT_CHANNELS.map((channel) => events.on(channel, (payload) => send(channel, payload)));
  return () => {
    for (const off of offs) off();
  };
}
