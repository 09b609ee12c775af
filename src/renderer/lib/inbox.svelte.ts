// The pending questions, kept in step with main: a snapshot (inbox:list, on start and on
// reconnect) and the events main sends meanwhile. A snapshot asked for before an event may arrive
// after it; what was added or settled since it was asked for wins over it.
import type { Envelope } from "../../shared/contract";
import type { InboxEvent, PendingEntry } from "../../shared/types";
import type { Call } from "./api";

type Added = Extract<InboxEvent, { type: "added" }>;

export class InboxState {
  // Raw state: main sends whole snapshots and we replace them, so deep proxies would only cost.
  pending = $state.raw<PendingEntry[]>([]);
  /** While a snapshot is on its way: ids added and settled by events meanwhile. */
  #since: { added: Set<string>; settled: Set<string> } | null = null;

  constructor(private readonly call: Call) {}

  async load(): Promise<Envelope<PendingEntry[]>> {
    const since = (this.#since = { added: new Set<string>(), settled: new Set<string>() });
    const result = await this.call("inbox:list");
    if (this.#since === since) this.#since = null;
    if (!result.ok) return result;
    const fresh = result.value.filter((e) => !since.settled.has(e.request.id));
    const ids = new Set(fresh.map((e) => e.request.id));
    const arrived = this.pending.filter((e) => since.added.has(e.request.id) && !ids.has(e.request.id));
    this.pending = [...fresh, ...arrived].sort((a, b) => a.receivedAt - b.receivedAt);
    return result;
  }

  find(id: string): PendingEntry | undefined {
    return this.pending.find((e) => e.request.id === id);
  }

  /**
   * Main's `added`: the question is listed, unless it already is or a rule the person set answers
   * it at once (its "answered" follows: nothing to show or open). True when it was listed.
   */
  added(event: Added): boolean {
    const id = event.entry.request.id;
    this.#since?.added.add(id);
    if (this.find(id) || event.byRule) return false;
    this.pending = [...this.pending, event.entry];
    return true;
  }

  /** Main's `answered` or `withdrawn`: the question leaves the list; returns it if it was listed. */
  settled(id: string): PendingEntry | undefined {
    this.#since?.settled.add(id);
    return this.remove(id);
  }

  /** Takes a question off the list (this page answered it); returns it if it was listed. */
  remove(id: string): PendingEntry | undefined {
    const entry = this.find(id);
    this.pending = this.pending.filter((e) => e.request.id !== id);
    return entry;
  }
}
