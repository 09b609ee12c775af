// Quiet notes about the person's rules: one answered a question, was saved, refused, or removed by
// Undo. Each stays RULE_NOTE_MS, and all stay while the person holds them (pointer or focus on
// them, or the page hidden).
import type { Clock } from "./clock.svelte";

/** How long a rule's note (answered by a rule, rule saved or refused) stays, unless held. */
export const RULE_NOTE_MS = 10_000;

export interface RuleNote {
  /** One note per rule (or per refused attempt): a rule answering again refreshes its note. */
  key: string;
  kind: "answered" | "made" | "refused" | "removed";
  ruleId?: string;
  /** The rule's explanation, or main's refusal in words. */
  text: string;
  /** Questions this rule answered while its note was up. */
  count: number;
  at: number;
}

export class RuleNotes {
  notes = $state.raw<RuleNote[]>([]);
  /** True while the pointer or focus is on the notes: they stay until the person leaves them. */
  held = $state(false);

  constructor(private readonly clock: Clock) {}

  /** Notes young enough to show (all of them while held). */
  get shown(): RuleNote[] {
    return this.notes.filter((n) => this.held || this.clock.now - n.at < RULE_NOTE_MS);
  }

  has(ruleId: string): boolean {
    return this.notes.some((n) => n.ruleId === ruleId);
  }

  dismiss(key: string): void {
    this.notes = this.notes.filter((n) => n.key !== key);
  }

  /** Holding keeps notes up; letting go gives each the full time again. */
  hold(held: boolean): void {
    this.held = held;
    if (!held) {
      const at = this.clock.touch();
      this.notes = this.notes.map((n) => ({ ...n, at }));
    }
  }

  /** Shows a note, replacing the one with its key; `counts` adds up a rule answering again. */
  add(note: Omit<RuleNote, "count" | "at">, counts = false): void {
    const old = this.notes.find((n) => n.key === note.key);
    const count = counts ? (old?.kind === "answered" && this.clock.now - old.at < RULE_NOTE_MS ? old.count + 1 : 1) : 1;
    const at = this.clock.touch();
    this.notes = [...this.notes.filter((n) => n.key !== note.key), { ...note, count, at }].slice(-5);
  }

  /** The explanation of a rule whose "answered" note went up before the page knew the rule. */
  explain(ruleId: string, text: string): void {
    this.notes = this.notes.map((n) => (n.key === ruleId && n.kind === "answered" ? { ...n, text } : n));
  }
}
