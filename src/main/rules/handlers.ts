// The rules' channels (rules:list, rules:add, rules:remove, rules:offer), served by the one handler
// map. Arguments are untrusted page input: each is checked before the store sees it, and a rule is
// only ever made from a question that is pending now.
import { RULE_ACTIONS, RULE_SCOPES, type RuleAction, type RuleScope, type RulesInvokeMap } from "../../shared/rules";
import type { HandlerMap } from "../../shared/contract";
import { ArgumentError, HandlerError } from "../rpc/envelope";
import { defineHandlers } from "../rpc/handlers";
import { noArg, objectArg } from "../rpc/validate";
import type { Inbox } from "../inbox";
import { unknownQuestion } from "../inbox/errors";
import { jsonBoundsProblem } from "../base/json-bounds";
import { RuleRefusedError, type RuleStore } from "./store";
import { isPlainObject } from "../../shared/unknown-value";

export type RulesHandlers = HandlerMap<RulesInvokeMap>;

const MAX_ID = 512;

function idField(channel: string, input: Record<string, unknown>, key: string): string {
  const value = input[key];
  if (typeof value !== "string" || value === "" || value.length > MAX_ID) throw new ArgumentError(`${channel}: "${key}" must be a non-empty string of at most ${MAX_ID} characters.`);
  return value;
}

function pendingEntry(inbox: Inbox, id: string) {
  const entry = inbox.get(id);
  if (!entry) throw unknownQuestion(id);
  return entry;
}

function refusal<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof RuleRefusedError) throw new HandlerError(error.code, error.message);
    throw error;
  }
}

export function createRulesHandlers({ store, inbox }: { store: RuleStore; inbox: Inbox }): RulesHandlers {
  return defineHandlers<RulesInvokeMap>({
    "rules:list": async (arg) => {
      noArg("rules:list", arg);
      return store.list();
    },
    "rules:offer": async (arg) => {
      const input = objectArg("rules:offer", arg);
      return store.offer(pendingEntry(inbox, idField("rules:offer", input, "questionId")));
    },
    "rules:add": async (arg) => {
      const channel = "rules:add";
      const input = objectArg(channel, arg);
      const questionId = idField(channel, input, "questionId");
      if (!(RULE_ACTIONS as readonly unknown[]).includes(input.action)) throw new ArgumentError(`${channel}: "action" must be one of ${RULE_ACTIONS.join(", ")}.`);
      if (!(RULE_SCOPES as readonly unknown[]).includes(input.scope)) throw new ArgumentError(`${channel}: "scope" must be one of ${RULE_SCOPES.join(", ")}.`);
      if (input.data !== undefined) {
        if (!isPlainObject(input.data)) throw new ArgumentError(`${channel}: "data" must be an object of the form's values.`);
        const bounds = jsonBoundsProblem(input.data);
        if (bounds) throw new ArgumentError(`${channel}: "data" is refused: ${bounds}`);
      }
      const entry = pendingEntry(inbox, questionId);
      const data = input.data as Record<string, unknown> | undefined;
      return refusal(() => store.add(entry, { action: input.action as RuleAction, scope: input.scope as RuleScope, ...(data !== undefined ? { data } : {}) }));
    },
    "rules:remove": async (arg) => {
      const input = objectArg("rules:remove", arg);
      return { removed: refusal(() => store.remove(idField("rules:remove", input, "id"))) };
    },
  });
}

/** The channels when rules are not wired (tests that build handlers by hand): a plain refusal. */
export function rulesOffHandlers(): RulesHandlers {
  const off = async (): Promise<never> => {
    throw new HandlerError("rules-unavailable", "This companion session has no rules.");
  };
  return defineHandlers<RulesInvokeMap>({ "rules:list": off, "rules:add": off, "rules:remove": off, "rules:offer": off });
}
