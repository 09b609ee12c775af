// Chooses how the page reaches main: the Electron preload's `window.companion` when present,
// otherwise a WebSocket to the host that served the page (browser mode).
import type { CompanionApi } from "../../shared/contract";
import { createWsTransport } from "./ws-transport";

declare global {
  interface Window {
    companion?: CompanionApi;
  }
}

export type Mode = "electron" | "browser";

export interface Connection {
  api: CompanionApi;
  mode: Mode;
  /** Browser mode only: link state, with `reconnected` true when the page should re-fetch. */
  onConnection?: (listener: (connected: boolean, reconnected: boolean) => void) => () => void;
}

/** Drops `?token=` from the address bar once the page has loaded: the cookie carries it now. */
function forgetTokenInUrl(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has("token")) return;
  url.searchParams.delete("token");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
}

export function connect(): Connection {
  if (window.companion) return { api: window.companion, mode: "electron" };
  forgetTokenInUrl();
  const transport = createWsTransport();
  return { api: transport.api, mode: "browser", onConnection: transport.onConnection };
}
