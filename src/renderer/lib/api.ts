// How the page reaches main. The transport is chosen once: the Electron preload's
// `window.companion` when present, otherwise a WebSocket to the host that served the page (browser
// mode). Every request the page makes then goes through one `call(channel, arg)`, which always
// resolves to main's Envelope: stores and components read `ok`, `value` and `error` and nothing
// else, and never need a try/catch.
import type { CompanionApi, Envelope, InvokeArg, InvokeChannel, InvokeResult } from "../../shared/contract";
import { createWsTransport } from "./ws-transport";
import { deviceProof } from "./device";

/** The subprotocol the device listener answers with (main's devices/proof.ts). */
const DEVICE_PROTOCOL = "tnc-device-v1";
import { errorMessage } from "../../shared/unknown-value";

declare global {
  interface Window {
    companion?: CompanionApi;
  }
}

/** "device": a paired phone or tablet on the device listener (Inbox and History only). */
export type Mode = "electron" | "browser" | "device";

export interface Connection {
  api: CompanionApi;
  mode: Mode;
  /** Browser mode only: link state, with `reconnected` true when the page should re-fetch. */
  onConnection?: (listener: (connected: boolean, reconnected: boolean) => void) => () => void;
}

/** A channel whose argument is `void` is called with none. */
type Args<C extends InvokeChannel> = [InvokeArg<C>] extends [void] ? [] : [arg: InvokeArg<C>];

/** One request to main; the reply is its Envelope, a refusal included. */
export type Call = <C extends InvokeChannel>(channel: C, ...arg: Args<C>) => Promise<Envelope<InvokeResult<C>>>;

/**
 * The page's one way to main. Both transports answer every channel with an envelope already; a
 * throw (a channel the transport lacks, a broken stand-in) becomes a refusal too, so no caller
 * needs a second failure path.
 */
export function caller(api: CompanionApi): Call {
  return async (channel, ...arg) => {
    try {
      const invoke = api[channel] as (...a: unknown[]) => Promise<Envelope<never>>;
      return await invoke(...arg);
    } catch (error) {
      return { ok: false, error: { code: "failed", message: errorMessage(error) } };
    }
  };
}

/** "" when main agreed, else its refusal in words: what a view shows beside the action. */
export function refusal(result: Envelope<unknown>): string {
  return result.ok ? "" : result.error.message;
}

/** Drops `?token=` from the address bar once the page has loaded: the cookie carries it now. */
function forgetTokenInUrl(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has("token")) return;
  url.searchParams.delete("token");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
}

/** A paired device: the WebSocket offers the device protocol and a fresh proof on every connect. */
export function connectDevice(key: string): Connection {
  const transport = createWsTransport({ protocols: () => [DEVICE_PROTOCOL, deviceProof(key)] });
  return { api: transport.api, mode: "device", onConnection: transport.onConnection };
}

export function connect(): Connection {
  if (window.companion) return { api: window.companion, mode: "electron" };
  forgetTokenInUrl();
  const transport = createWsTransport();
  return { api: transport.api, mode: "browser", onConnection: transport.onConnection };
}
