// Rules the person sets ("Always answer this way") as they cross process boundaries: what a rule
// is, how the page asks for one, and the channels Settings and the question form use. Plain data.

/** `session`: kept in memory until the companion quits. `always`: kept in a file until removed. */
import type { AskedField } from "./history";

export type RuleScope = "session" | "always";
export type RuleAction = "accept" | "decline";

export const RULE_SCOPES: readonly RuleScope[] = ["session", "always"];
export const RULE_ACTIONS: readonly RuleAction[] = ["accept", "decline"];

/** One field of the form a rule was made for (key, title and option titles, as asked). */
export type RuleField = AskedField;

/**
 * A server's form, answered the same way each time it asks the same form: same server, same tool
 * (when the question said which), same schema fingerprint.
 */
export interface FormRule {
  id: string;
  type: "form";
  server: string;
  /** The tool whose call asked; absent when the question did not say (then any tool of the server). */
  tool?: string;
  /** A stable hash of the form's normalized schema; a changed form no longer matches. */
  fingerprint: string;
  fields: RuleField[];
  action: RuleAction;
  /** The values sent on accept (never a credential-looking field). */
  data?: Record<string, unknown>;
  scope: RuleScope;
  /** The prompt of the question it was made from, for the person's memory of it. */
  prompt: string;
  /** Epoch ms. */
  createdAt: number;
}

/**
 * An agent's permission prompt allowed again when it is repeated exactly: same agent, project,
 * tool and input. Session only, never for shell commands.
 */
export interface ApprovalRule {
  id: string;
  type: "approval";
  agent: string;
  project?: string;
  tool: string;
  /** The readable summary of the input it was made for (what would run). */
  summary: string;
  /** Hash of the exact request (agent, project, tool, input, agent session). */
  key: string;
  action: "accept";
  scope: "session";
  prompt: string;
  createdAt: number;
}

export type Rule = FormRule | ApprovalRule;

/** A rule as Settings shows it: the rule, what it does in words, and how often it fired. */
export type RuleView = Rule & {
  explanation: string;
  /** Questions it answered since the companion started. */
  uses: number;
  /** Epoch ms of its last answer in this session. */
  lastUsedAt?: number;
};

/** "This one, this way": the rule is built in main from the pending question, never from the page's say-so. */
export interface RuleAddArg {
  questionId: string;
  action: RuleAction;
  /** The values to send on accept (checked against the question's form like an answer). */
  data?: Record<string, unknown>;
  scope: RuleScope;
}

/** What the page may offer for a pending question, before the person picks anything. */
export interface RuleOffer {
  /** False when no rule can be made for it; `reason` says why in words. */
  allowed: boolean;
  reason?: string;
  actions: RuleAction[];
  scopes: RuleScope[];
  /** Fields that look like credentials: an accepting rule is refused if any of them has a value. */
  credentialFields?: string[];
}

/**
 * The rules' invoke channels: channel → [argument, result]. contract.ts's InvokeMap extends this
 * (see src/main/rules/handlers.ts).
 */
export interface RulesInvokeMap {
  "rules:list": [void, RuleView[]];
  /** Makes a rule from pending question `questionId`; refused (code "rule-refused") with a reason. */
  "rules:add": [RuleAddArg, RuleView];
  /** Removes a rule (the undo of a rule's answer, and Settings' Remove). */
  "rules:remove": [{ id: string }, { removed: boolean }];
  /** Whether "Always answer this way" applies to pending question `questionId`, and how. */
  "rules:offer": [{ questionId: string }, RuleOffer];
}

export const RULES_INVOKE_CHANNELS = ["rules:list", "rules:add", "rules:remove", "rules:offer"] as const satisfies readonly (keyof RulesInvokeMap)[];

/** Event channels: the rule list changed (added, removed, a file edit by the CLI noticed). */
export interface RulesEventMap {
  "rules:changed": RuleView[];
}

export const RULES_EVENT_CHANNELS = ["rules:changed"] as const satisfies readonly (keyof RulesEventMap)[];
