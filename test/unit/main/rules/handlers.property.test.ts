// Property over hostile forms and values (the fuzz suite's arbitraries): rules:add either makes a
// rule or refuses in words (never a crash, never a credential kept), and a rule it makes is a rule
// that fires — the very next identical question is answered by it, with the values it holds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toEnvelope } from "../../../../src/main/rpc/envelope";
import { isCredentialProperty as isCredentialField } from "../../../../src/forms/credential";
import { Inbox } from "../../../../src/main/inbox";
import type { InboxEvent } from "../../../../src/shared/types";
import { createRulesHandlers } from "../../../../src/main/rules/handlers";
import { RuleStore } from "../../../../src/main/rules/store";
import type { RuleView } from "../../../../src/shared/rules";
import { schemaLike, submitted } from "../../../fuzz/hostile-arbitraries";

// Plain flat forms with values that mostly fit, so accepting rules are made often too; some keys
// and titles look like credentials.
const fieldKey = fc.oneof(fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,7}$/), fc.constantFrom("password", "apiKey", "pin", "otp", "branch", "spinner"));
const flatField = fc.oneof(
  fc.record({ type: fc.constant("string"), title: fc.constantFrom("Name", "Token", "Passphrase", "Comment") }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("string"), format: fc.constant("password") }),
  fc.record({ type: fc.constant("integer"), minimum: fc.constant(0), maximum: fc.constant(9) }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("boolean"), default: fc.boolean() }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("string"), enum: fc.constant(["a", "b"]) }),
);
const flatForm = fc.dictionary(fieldKey, flatField, { minKeys: 1, maxKeys: 5 }).map((properties) => ({ type: "object", properties }));
const flatValues = fc.dictionary(fieldKey, fc.oneof(fc.constantFrom("a", "b", "x"), fc.integer({ min: -1, max: 10 }), fc.boolean()), { maxKeys: 5 });

describe("rules:add over hostile forms (property)", () => {
  it("makes a rule that fires, or refuses with a reason", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(schemaLike, flatForm), fc.oneof(submitted, flatValues), fc.constantFrom("accept", "decline"), async (schema, data, action) => {
        const inbox = new Inbox();
        const store = new RuleStore();
        inbox.setAutoAnswer((e) => store.autoAnswer(e));
        const handlers = createRulesHandlers({ store, inbox });
        const events: InboxEvent[] = [];
        inbox.on((e) => events.push(e));
        try {
          const first = inbox.admit({ id: "q1", kind: "input", prompt: "p", data: { schema } }, { source: { server: "s", tool: "t" } });
          if (!first.ok) return;
          const made = await toEnvelope(() => handlers["rules:add"]({ questionId: "q1", action, data, scope: "session" }));
          if (!made.ok) {
            expect(["rule-refused", "invalid-argument"]).toContain(made.error.code);
            expect(made.error.message.length).toBeGreaterThan(10);
            return;
          }
          const rule = made.value as RuleView & { type: "form" };
          const declared = (schema as { properties?: unknown }).properties;
          const properties = typeof declared === "object" && declared !== null ? (declared as Record<string, unknown>) : {};
          for (const key of Object.keys(rule.data ?? {})) {
            expect(isCredentialField(key, Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined)).toBe(false);
          }
          const next = inbox.admit({ id: "q2", kind: "input", prompt: "p", data: { schema } }, { source: { server: "s", tool: "t" } });
          expect(next.ok).toBe(true);
          expect(inbox.get("q2")).toBeUndefined();
          expect(events.at(-1)).toMatchObject({ type: "answered", id: "q2", by: "rule", ruleId: rule.id });
          const answer = await (next as { answer: Promise<unknown> }).answer;
          expect(answer).toEqual(action === "accept" ? { id: "q2", ok: true, data: rule.data } : { id: "q2", ok: false, reason: "declined" });
        } finally {
          inbox.close();
        }
      }),
      { numRuns: 300, interruptAfterTimeLimit: 8_000 },
    );
  });
});
