// What the desktop shell needs from the core, and what it gives back. Kept structural and minimal
// so the shell is testable with a fake and does not drag the MCP stack into its unit tests; the
// real `Core` from ../app/core.ts satisfies it.
import type { EventChannel, EventMap, HandlerMap, InvokeMap, Settings } from "../../shared/contract";
import type { ServerView } from "../../shared/types";
import type { PendingEntry } from "../../shared/types";

export type DesktopHandlers = HandlerMap<InvokeMap>;

export interface DesktopCore {
  /** The questions waiting for the person, scrubbed as every view reads them (app/egress.ts). */
  pending(): PendingEntry[];
  handlers: DesktopHandlers;
  events: { on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void };
  servers(): ServerView[];
  settings(): Settings;
  /** Asks every view to show question `id` (emits `inbox:focus`). */
  focus(id: string): void;
  close(): Promise<void>;
}

/** The OS services the core may use; the Electron implementation lives in platform.ts. */
export interface DesktopPlatform {
  /** Opens the url in the system browser; null would mean "the page opens it" (browser mode only). */
  openExternal(url: string): Promise<void> | null;
  getStartAtLogin(): boolean;
  setStartAtLogin(enabled: boolean): void;
}
