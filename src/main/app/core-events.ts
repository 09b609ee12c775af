// The core's events to its views (pages, tray, notifications): every payload passes the egress
// once here, whoever listens, and only when someone does.
import type { EventChannel, EventMap } from "../../shared/contract";
import type { Egress } from "./egress";

export interface CoreEvents {
  on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void;
}

export interface EventHub extends CoreEvents {
  emit<E extends EventChannel>(event: E, raw: EventMap[E]): void;
  /** For a payload made of pieces each scrubbed already (the servers list): not walked again. */
  emitScrubbed<E extends EventChannel>(event: E, payload: EventMap[E]): void;
  listening(event: EventChannel): boolean;
  clear(): void;
}

export function createEvents(egress: Egress): EventHub {
  const listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  const emitScrubbed = <E extends EventChannel>(event: E, payload: EventMap[E]): void => {
    const set = listeners.get(event);
    if (!set || set.size === 0) return;
    for (const listener of set) {
      try {
        (listener as (payload: EventMap[E]) => void)(payload);
      } catch {
        // A broken view must not stop the others.
      }
    }
  };
  return {
    on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set!.delete(listener as (payload: never) => void);
    },
    emit<E extends EventChannel>(event: E, raw: EventMap[E]): void {
      const set = listeners.get(event);
      if (!set || set.size === 0) return;
      emitScrubbed(event, egress.event<E>(raw));
    },
    emitScrubbed,
    listening: (event) => (listeners.get(event)?.size ?? 0) > 0,
    clear: () => listeners.clear(),
  };
}
