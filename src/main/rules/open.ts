// One call for the composition root: the rule store, its hook into the Inbox (a matching question
// is answered at once, in the rule's name), and its channels. core.ts calls openRules right after
// creating the Inbox, beside openHistory.
import type { RuleView } from "../../shared/rules";
import type { Inbox } from "../inbox";
import { createRulesHandlers, type RulesHandlers } from "./handlers";
import { RuleStore, type RuleStoreOptions } from "./store";

export interface RulesHandle {
  store: RuleStore;
  handlers: RulesHandlers;
  /** The rule list changed (for the "rules:changed" event). */
  on(listener: (rules: RuleView[]) => void): () => void;
  close(): void;
}

export function openRules(inbox: Inbox, options: RuleStoreOptions = {}): RulesHandle {
  // core.ts passes its egress's `stored` as redact: a value that is one of the person's known
  // secrets is never kept in a rule.
  const store = new RuleStore(options);
  const unhook = inbox.setAutoAnswer((entry) => store.autoAnswer(entry));
  const unlisten = inbox.on((event) => {
    if (event.type === "answered" && event.by === "rule" && event.ruleId) store.noteUsed(event.ruleId);
  });
  return {
    store,
    handlers: createRulesHandlers({ store, inbox }),
    on: (listener) => store.on(listener),
    close() {
      unhook();
      unlisten();
    },
  };
}
