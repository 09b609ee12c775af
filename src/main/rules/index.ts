export { openRules, type RulesHandle } from "./open";
export { RuleStore, RuleRefusedError, type RuleStoreOptions } from "./store";
export { createRulesHandlers, rulesOffHandlers, type RulesHandlers } from "./handlers";
export { defaultRulesPath, RULES_FILE } from "./paths";
export { schemaFingerprint } from "./fingerprint";
export { explainRule } from "./explain";
