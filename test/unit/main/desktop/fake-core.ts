// A DesktopCore with nothing pending, for desktop tests that only play main's events: every channel
// answers (inbox:list an empty list, the rest the settings), `emit` plays an event to the app, and
// `handlers` may be replaced per channel to record what the app asks.
import { INVOKE_CHANNELS, type EventChannel, type EventMap, type Settings } from "../../../../src/shared/contract";
import type { PendingEntry } from "../../../../src/shared/types";
import type { DesktopCore } from "../../../../src/main/desktop/types";

export function quietCore() {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const settings: Settings = { notificationsPaused: false, startAtLogin: false, gateway: { url: "", tokenSet: true }, keychain: { available: false, detail: "" }, secretNames: [] };
  const handlers: Record<string, (arg: unknown) => Promise<unknown>> = {};
  for (const channel of INVOKE_CHANNELS) handlers[channel] = async () => (channel === "inbox:list" ? [] : settings);
  const core = {
    pending: () => [] as PendingEntry[],
    handlers: handlers as unknown as DesktopCore["handlers"],
    events: {
      on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(listener as (payload: unknown) => void);
        return () => listeners.get(event)!.delete(listener as (payload: unknown) => void);
      },
    },
    servers: () => [],
    settings: () => settings,
    focus: () => {},
    close: async () => {},
  } satisfies DesktopCore;
  const emit = <E extends EventChannel>(event: E, payload: EventMap[E]) => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };
  return { core, emit, handlers };
}
