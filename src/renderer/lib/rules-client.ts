// The page's side of "Always answer this way": asking main whether a rule may be made for a
// question, making one, removing one, and the words Settings and the toast show. Main builds every
// rule from the pending question; the page only says which answer and how long.
import type { CompanionApi } from "../../shared/contract";
import type { RuleAction, RuleAddArg, RuleOffer, RuleScope, RuleView } from "../../shared/rules";

/** What the person picked in "Always answer this way". */
export interface RuleChoice {
  enabled: boolean;
  action: RuleAction;
  scope: RuleScope;
}

export type RuleResult<T> = { ok: true; value: T } | { ok: false; message: string };

export interface RulesClient {
  /** What main offers for a pending question; a refusal or a failure reads as "not offered". */
  offer(questionId: string): Promise<RuleOffer>;
  add(arg: RuleAddArg): Promise<RuleResult<RuleView>>;
  remove(id: string): Promise<RuleResult<boolean>>;
}

const NOT_OFFERED: RuleOffer = { allowed: false, actions: [], scopes: [] };

export function rulesClient(api: Pick<CompanionApi, "rules:offer" | "rules:add" | "rules:remove">): RulesClient {
  return {
    async offer(questionId) {
      try {
        const result = await api["rules:offer"]({ questionId });
        return result.ok ? result.value : { ...NOT_OFFERED, reason: result.error.message };
      } catch {
        return NOT_OFFERED;
      }
    },
    async add(arg) {
      try {
        const result = await api["rules:add"](arg);
        return result.ok ? result : { ok: false, message: result.error.message };
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
    },
    async remove(id) {
      try {
        const result = await api["rules:remove"]({ id });
        return result.ok ? { ok: true, value: result.value.removed } : { ok: false, message: result.error.message };
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}

export function scopeText(scope: RuleScope): string {
  return scope === "session" ? "Until the companion quits" : "Until you remove it";
}

export function scopeChoiceText(scope: RuleScope): string {
  return scope === "session" ? "For this session" : "Until I remove it";
}

export function actionChoiceText(action: RuleAction): string {
  return action === "accept" ? "Accept with these values" : "Decline";
}

export function usesText(rule: Pick<RuleView, "uses">): string {
  return rule.uses === 0 ? "Not used yet" : rule.uses === 1 ? "Used once" : `Used ${rule.uses} times`;
}
