// The page's whole view of main: one function per invoke channel and event subscriptions,
// built from one-line helpers over the contract's allow-lists. Kept free of the `electron`
// import so it is unit-tested with a fake ipcRenderer.
import {
  EVENT_CHANNELS,
  INVOKE_CHANNELS,
  type CompanionApi,
  type Envelope,
  type EventChannel,
  type EventMap,
  type InvokeChannel,
  type InvokeResult,
} from "../shared/contract";
import { errorMessage } from "../shared/unknown-value";

/** The slice of ipcRenderer the bridge uses; the page never sees it. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

const KNOWN_EVENTS: ReadonlySet<string> = new Set(EVENT_CHANNELS);

function invoker<C extends InvokeChannel>(ipc: IpcRendererLike, channel: C) {
  return async (arg: unknown): Promise<Envelope<InvokeResult<C>>> => {
    try {
      return (await ipc.invoke(channel, arg)) as Envelope<InvokeResult<C>>;
    } catch (error) {
      // No handler yet, or the arg could not be cloned: still an envelope, never a throw.
      return { ok: false, error: { code: "ipc", message: errorMessage(error) } };
    }
  };
}

export function createCompanionApi(ipc: IpcRendererLike): CompanionApi {
  const api: Record<string, unknown> = {};
  for (const channel of INVOKE_CHANNELS) api[channel] = invoker(ipc, channel);
  api.on = <E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): (() => void) => {
    if (typeof event !== "string" || !KNOWN_EVENTS.has(event)) throw new Error(`unknown event channel: ${String(event)}`);
    if (typeof listener !== "function") throw new Error("listener must be a function");
    // The IpcRendererEvent (which holds `sender`, i.e. ipcRenderer) stays on this side.
    const wrapped = (_event: unknown, payload: unknown) => listener(payload as EventMap[E]);
    ipc.on(event, wrapped);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      ipc.removeListener(event, wrapped);
    };
  };
  return Object.freeze(api) as CompanionApi;
}
