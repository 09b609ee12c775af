// Resumability for one agent session's event streams (SSE polling, SEP-1699): every message the
// SDK's transport writes on a stream is kept here under an event id, so an agent whose stream
// closed (the gateway polled it, a proxy cut it) reconnects with Last-Event-ID and gets what it
// missed, the call's result included. Bounded: the oldest events go first past a count or a size,
// per session and over all sessions (EventBudget).
import type { EventStore } from "@modelcontextprotocol/server";
import { tryStringify } from "../base/json-bounds";
import { MAX_MCP_EVENT_BYTES_TOTAL } from "../../shared/limits";

/** Events kept per session: a call's stream rarely carries more than its progress and result. */
const MAX_EVENTS = 256;
/** Bytes of JSON kept per session: a large result is kept for one reconnect, not forever. */
const MAX_BYTES = 8 * 1024 * 1024;

interface Stored {
  id: string;
  stream: string;
  message: Parameters<EventStore["storeEvent"]>[1];
  bytes: number;
}

/** The bytes every session's store keeps, together: past the total, the largest stores shed first. */
export class EventBudget {
  bytes = 0;
  readonly stores = new Set<SessionEvents>();
  constructor(readonly maxBytes: number = MAX_MCP_EVENT_BYTES_TOTAL) {}

  /** Sheds the oldest events, the storing session's own first, then the largest other store's. */
  enforce(storing: SessionEvents): void {
    while (this.bytes > this.maxBytes && storing.shed()) {}
    while (this.bytes > this.maxBytes) {
      let largest: SessionEvents | undefined;
      for (const store of this.stores) if (store !== storing && (!largest || store.size() > largest.size())) largest = store;
      if (!largest || !largest.shed()) return;
    }
  }
}

export class SessionEvents implements EventStore {
  private readonly events: Stored[] = [];
  private bytes = 0;
  private next = 0;

  constructor(private readonly budget: EventBudget = new EventBudget()) {
    budget.stores.add(this);
  }

  async storeEvent(stream: string, message: Stored["message"]): Promise<string> {
    const id = `${stream}_${++this.next}`;
    const bytes = tryStringify(message)?.length ?? 0;
    this.events.push({ id, stream, message, bytes });
    this.bytes += bytes;
    this.budget.bytes += bytes;
    while (this.events.length > MAX_EVENTS || (this.bytes > MAX_BYTES && this.events.length > 1)) this.shed();
    this.budget.enforce(this);
    return id;
  }

  /** Bytes this session keeps. */
  size(): number {
    return this.bytes;
  }

  /** Drops the oldest event, keeping the newest (a result waiting for its one reconnect). */
  shed(): boolean {
    if (this.events.length <= 1) return false;
    const bytes = this.events.shift()!.bytes;
    this.bytes -= bytes;
    this.budget.bytes -= bytes;
    return true;
  }

  /** The session ended: its events leave the budget. */
  dispose(): void {
    this.budget.bytes -= this.bytes;
    this.bytes = 0;
    this.events.length = 0;
    this.budget.stores.delete(this);
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === eventId)?.stream ?? streamOf(eventId);
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: Stored["message"]) => Promise<void> }): Promise<string> {
    const stream = streamOf(lastEventId);
    if (stream === undefined) throw new Error("unknown Last-Event-ID");
    const after = Number(lastEventId.slice(stream.length + 1));
    for (const event of this.events) {
      if (event.stream === stream && Number(event.id.slice(stream.length + 1)) > after) await send(event.id, event.message);
    }
    return stream;
  }
}

/** The stream an event id names (`<stream>_<n>`; stream ids are the SDK's, without `_<digits>` at the end). */
function streamOf(eventId: string): string | undefined {
  const cut = eventId.lastIndexOf("_");
  return cut > 0 && /^\d+$/.test(eventId.slice(cut + 1)) ? eventId.slice(0, cut) : undefined;
}
