// The person's rules as main last sent them (Settings lists them; notes read their explanations),
// and "Always answer this way": main builds every rule from the pending question; the page only
// says which answer and how long.
import type { Envelope } from "../../shared/contract";
import type { RuleAction, RuleAddArg, RuleOffer, RuleScope, RuleView } from "../../shared/rules";
import type { Call } from "./api";
import type { RuleNotes } from "./rule-notes.svelte";

/** What the person picked in "Always answer this way". */
export interface RuleChoice {
  enabled: boolean;
  action: RuleAction;
  scope: RuleScope;
}

/** What a question's form or card may do about rules (component tests pass a fake). */
export interface RuleCalls {
  offer(questionId: string): Promise<Envelope<RuleOffer>>;
  add(arg: RuleAddArg): Promise<Envelope<RuleView>>;
}

const NOT_OFFERED: RuleOffer = { allowed: false, actions: [], scopes: [] };

/** What main offers for a pending question; a refusal reads as "not offered", with main's reason. */
export function offerOf(result: Envelope<RuleOffer>): RuleOffer {
  return result.ok ? result.value : { ...NOT_OFFERED, reason: result.error.message };
}

export class RulesState {
  list = $state.raw<RuleView[]>([]);
  /** `rules:changed` events seen, so a list asked for before one loses to it. */
  #seen = 0;

  constructor(
    private readonly call: Call,
    private readonly notes: RuleNotes,
  ) {}

  /** Main's `rules:changed`. */
  changed(rules: RuleView[]): void {
    this.#seen++;
    this.list = rules;
  }

  /** A page without rules (an older companion refuses the channel) simply lists none. */
  async load(): Promise<void> {
    const seen = this.#seen;
    const result = await this.call("rules:list");
    if (result.ok && this.#seen === seen) this.list = result.value;
  }

  offer(questionId: string): Promise<Envelope<RuleOffer>> {
    return this.call("rules:offer", { questionId });
  }

  /** Makes a rule; the outcome is a note, since the question (and its form) leaves right after. */
  async make(arg: RuleAddArg): Promise<Envelope<RuleView>> {
    const result = await this.call("rules:add", arg);
    if (result.ok) {
      const rule = result.value;
      if (!this.list.some((r) => r.id === rule.id)) this.list = [...this.list, rule];
      this.notes.add({ key: rule.id, kind: "made", ruleId: rule.id, text: rule.explanation });
    } else this.notes.add({ key: `refused-${arg.questionId}`, kind: "refused", text: result.error.message });
    return result;
  }

  /** Settings' Remove and the notes' Undo. */
  async remove(id: string): Promise<Envelope<{ removed: boolean }>> {
    const result = await this.call("rules:remove", { id });
    if (!result.ok) return result;
    this.list = this.list.filter((r) => r.id !== id);
    if (this.notes.has(id)) this.notes.add({ key: id, kind: "removed", ruleId: id, text: "" });
    return result;
  }

  /** A rule answered a question: say so quietly, with the rule's explanation and an Undo. */
  async answered(ruleId: string): Promise<void> {
    const explanation = () => this.list.find((r) => r.id === ruleId)?.explanation;
    this.notes.add({ key: ruleId, kind: "answered", ruleId, text: explanation() ?? "" }, true);
    if (explanation() !== undefined) return;
    await this.load();
    const text = explanation();
    if (text !== undefined) this.notes.explain(ruleId, text);
  }
}
