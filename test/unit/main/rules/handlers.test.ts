// The rules channels as the page calls them: arguments checked, rules made only from pending
// questions, refusals with a code the page can branch on and a reason it can show.
import { afterEach, describe, expect, it } from "vitest";
import { toEnvelope } from "../../../../src/main/rpc/envelope";
import { Inbox } from "../../../../src/main/inbox";
import { createRulesHandlers } from "../../../../src/main/rules/handlers";
import { RuleStore } from "../../../../src/main/rules/store";
import type { Request } from "../../../../src/shared/types";

const form: Request = { id: "q1", kind: "input", prompt: "Deploy?", data: { schema: { type: "object", properties: { branch: { type: "string" }, password: { type: "string" } } } } };
let inbox: Inbox;
afterEach(() => inbox?.close());

function setup() {
  inbox = new Inbox();
  const store = new RuleStore();
  const handlers = createRulesHandlers({ store, inbox });
  void inbox.waitFor(form, { source: { server: "github" } });
  void inbox.waitFor({ id: "u1", kind: "authorization", prompt: "Sign in", url: "https://example.com/auth" }, { source: { server: "github" } });
  return { handlers, store };
}

describe("rules handlers", () => {
  it("adds from a pending question, lists, offers, and removes", async () => {
    const { handlers } = setup();
    expect(await handlers["rules:offer"]({ questionId: "q1" })).toEqual({ allowed: true, actions: ["accept", "decline"], scopes: ["session"], credentialFields: ["password"] });
    const view = await handlers["rules:add"]({ questionId: "q1", action: "accept", data: { branch: "main" }, scope: "session" });
    expect(view).toMatchObject({ type: "form", server: "github", data: { branch: "main" }, uses: 0, explanation: expect.any(String) });
    expect((await handlers["rules:list"](undefined)).map((r) => r.id)).toEqual([view.id]);
    expect(await handlers["rules:remove"]({ id: view.id })).toEqual({ removed: true });
    expect(await handlers["rules:remove"]({ id: view.id })).toEqual({ removed: false });
  });

  it("refuses with rule-refused: URL mode, a credential value, and always without a rules file", async () => {
    const { handlers } = setup();
    const url = await toEnvelope(() => handlers["rules:add"]({ questionId: "u1", action: "accept", scope: "session" }));
    expect(url).toMatchObject({ ok: false, error: { code: "rule-refused", message: expect.stringMatching(/never opens a URL/) } });
    const credential = await toEnvelope(() => handlers["rules:add"]({ questionId: "q1", action: "accept", data: { password: "hunter2" }, scope: "session" }));
    expect(credential).toMatchObject({ ok: false, error: { code: "rule-refused", message: expect.stringMatching(/"password" looks like a password/) } });
    const always = await toEnvelope(() => handlers["rules:add"]({ questionId: "q1", action: "decline", scope: "always" }));
    expect(always).toMatchObject({ ok: false, error: { code: "rule-refused" } });
  });

  it.each([
    [undefined, /object argument/],
    [{ questionId: 1, action: "accept", scope: "session" }, /"questionId" must be/],
    [{ questionId: "q1", action: "allow", scope: "session" }, /"action" must be one of accept, decline/],
    [{ questionId: "q1", action: "accept", scope: "forever" }, /"scope" must be one of session, always/],
    [{ questionId: "q1", action: "accept", scope: "session", data: [1] }, /"data" must be an object/],
  ])("checks its argument: %j", async (arg, message) => {
    const { handlers } = setup();
    expect(await toEnvelope(() => handlers["rules:add"](arg))).toMatchObject({ ok: false, error: { code: "invalid-argument", message: expect.stringMatching(message) } });
  });

  it("refuses a question that is not pending, and bad list/remove arguments", async () => {
    const { handlers } = setup();
    expect(await toEnvelope(() => handlers["rules:add"]({ questionId: "gone", action: "decline", scope: "session" }))).toMatchObject({ ok: false, error: { code: "unknown-id" } });
    expect(await toEnvelope(() => handlers["rules:offer"]({ questionId: "gone" }))).toMatchObject({ ok: false, error: { code: "unknown-id" } });
    expect(await toEnvelope(() => handlers["rules:list"]({ x: 1 }))).toMatchObject({ ok: false, error: { code: "invalid-argument" } });
    expect(await toEnvelope(() => handlers["rules:remove"]({ id: "" }))).toMatchObject({ ok: false, error: { code: "invalid-argument" } });
  });
});
