// Questions turned away before they were ever pending (a flooding server past its cap, a duplicate
// id): said once, in the Inbox, so the person knows questions were refused on their behalf. A flood
// is one line with a count, not a screenful of copies.
import type { InboxEvent } from "../../shared/types";

type Refused = Extract<InboxEvent, { type: "refused" }>;

export class Refusals {
  /** The last few groups in words, newest last. */
  lines = $state.raw<string[]>([]);
  #groups = new Map<string, { who: string; reason: string; count: number }>();

  add(event: Refused): void {
    const who = event.source.server ?? event.source.agent ?? "an agent";
    const key = `${who}\u0000${event.reason}`;
    const group = this.#groups.get(key) ?? { who, reason: event.reason, count: 0 };
    group.count += 1;
    this.#groups.delete(key);
    this.#groups.set(key, group);
    while (this.#groups.size > 5) this.#groups.delete(this.#groups.keys().next().value!);
    this.lines = [...this.#groups.values()].map((g) =>
      g.count === 1 ? `A question from ${g.who} was cancelled at once: ${g.reason}.` : `${g.count} questions from ${g.who} were cancelled at once: ${g.reason}.`,
    );
  }

  dismiss(): void {
    this.#groups.clear();
    this.lines = [];
  }
}
