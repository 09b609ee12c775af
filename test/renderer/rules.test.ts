// "Always answer this way" in the page: the form's rule control, the approval card's tick box, the
// quiet notes with Undo after a rule answers, and Settings' list. Component tests on the fake API
// (main's own rule making is tested in test/unit/main/rules and test/integration).
import { afterEach, describe, it, expect, vi } from "vitest";
import { render, screen, fireEvent, within, waitFor } from "@testing-library/svelte";
import App from "../../src/renderer/App.svelte";
import QuestionForm from "../../src/renderer/components/QuestionForm.svelte";
import ApprovalCard from "../../src/renderer/components/ApprovalCard.svelte";
import { checkFor, entry, fakeApi, formEntry, ok } from "./fake-api";
import type { AnswerInput, Envelope } from "../../src/shared/contract";
import type { Answer } from "../../src/shared/types";
import type { RuleAddArg, RuleOffer, RuleView } from "../../src/shared/rules";

const schema = {
  type: "object",
  properties: {
    branch: { type: "string", title: "Branch" },
    force: { type: "boolean", title: "Force push" },
  },
  required: ["branch"],
};

const formOffer: RuleOffer = { allowed: true, actions: ["accept", "decline"], scopes: ["session", "always"] };

function ruleView(over: Partial<RuleView> = {}): RuleView {
  return {
    id: "rule-1",
    type: "form",
    server: "everything",
    fingerprint: "fp",
    fields: [{ key: "branch", title: "Branch" }],
    action: "accept",
    data: { branch: "main" },
    scope: "session",
    prompt: "Which branch?",
    createdAt: Date.now() - 60_000,
    explanation: 'Accept the form (Branch) from everything (any tool) sending branch = "main", until the companion quits.',
    uses: 0,
    ...over,
  } as RuleView;
}

/** Calls in the order they happened, across the rule client and the answer. */
function recorder(offer: RuleOffer, addResult: Envelope<RuleView> = { ok: true, value: ruleView() }) {
  const calls: string[] = [];
  const rules = {
    offer: vi.fn(async (_id: string) => ok(offer)),
    add: vi.fn(async (arg: RuleAddArg) => {
      calls.push(`add:${arg.action}:${arg.scope}`);
      return addResult;
    }),
  };
  const answer = vi.fn(async (a: AnswerInput): Promise<Envelope<Answer>> => {
    calls.push(`answer:${a.ok ? "ok" : a.reason}`);
    return ok(a);
  });
  return { calls, rules, answer };
}

function renderForm(offer: RuleOffer, addResult?: Envelope<RuleView>) {
  const r = recorder(offer, addResult);
  const e = formEntry(schema, "Which branch?");
  render(QuestionForm, { props: { entry: e, answer: r.answer, check: checkFor(schema), rules: r.rules } });
  return { ...r, id: e.request.id };
}

const always = () => screen.findByRole("checkbox", { name: "Always answer this way" });

describe("QuestionForm: Always answer this way", () => {
  it("asks main what it offers, and shows only the offered choices once ticked", async () => {
    const { rules, id } = renderForm({ allowed: true, actions: ["accept", "decline"], scopes: ["session"] });
    expect(rules.offer).toHaveBeenCalledWith(id);
    const box = await always();
    expect(screen.queryByRole("group", { name: "Answer" })).toBeNull();
    await fireEvent.click(box);
    const answerGroup = screen.getByRole("group", { name: "Answer" });
    expect(within(answerGroup).getAllByRole("radio").map((r) => r.parentElement?.textContent?.trim())).toEqual(["Accept with these values", "Decline"]);
    // One scope offered (no rules file): said in words, not a choice.
    expect(screen.queryByRole("group", { name: "For how long" })).toBeNull();
    expect(screen.getByText(/For this session/)).toBeTruthy();
  });

  it("accept with the control ticked makes the rule with the sent values and scope, then answers", async () => {
    const { calls, rules, answer, id } = renderForm(formOffer);
    await fireEvent.click(await always());
    await fireEvent.click(screen.getByRole("radio", { name: "Until I remove it" }));
    await fireEvent.input(screen.getByRole("textbox", { name: "Branch" }), { target: { value: "main" } });
    const accept = screen.getByRole("button", { name: "Accept" }) as HTMLButtonElement;
    await waitFor(() => expect(accept.disabled).toBe(false));
    await fireEvent.click(accept);
    await waitFor(() => expect(answer).toHaveBeenCalled());
    expect(calls).toEqual(["add:accept:always", "answer:ok"]);
    expect(rules.add).toHaveBeenCalledWith({ questionId: id, action: "accept", scope: "always", data: { branch: "main" } });
    expect(answer.mock.calls[0][0]).toEqual({ id, ok: true, data: { branch: "main" } });
  });

  it("a decline rule is made by Decline; with the box unticked no rule is made", async () => {
    const first = renderForm(formOffer);
    await fireEvent.click(await always());
    await fireEvent.click(screen.getByRole("radio", { name: "Decline" }));
    await fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    await waitFor(() => expect(first.answer).toHaveBeenCalled());
    expect(first.calls).toEqual(["add:decline:session", "answer:declined"]);
    expect(first.rules.add.mock.calls[0][0]).not.toHaveProperty("data");
    document.body.innerHTML = "";

    const second = renderForm(formOffer);
    await always();
    await fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    await waitFor(() => expect(second.answer).toHaveBeenCalled());
    expect(second.rules.add).not.toHaveBeenCalled();
  });

  it("pressing the other button than the rule's answer makes no rule", async () => {
    const { calls, answer } = renderForm(formOffer);
    await fireEvent.click(await always());
    // The rule would accept; the person declines this one: no rule, just the decline.
    await fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    await waitFor(() => expect(answer).toHaveBeenCalled());
    expect(calls).toEqual(["answer:declined"]);
  });

  it("names the credential-looking fields that must stay empty", async () => {
    renderForm({ ...formOffer, credentialFields: ["API key"] });
    await fireEvent.click(await always());
    expect(screen.getByText(/Must stay empty for a rule: API key\./)).toBeTruthy();
  });

  it("shows nothing when main offers no rule (a URL or an agent's form)", async () => {
    const { rules } = renderForm({ allowed: false, reason: "A link to open or a sign-in is always yours to answer.", actions: [], scopes: [] });
    await waitFor(() => expect(rules.offer).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole("checkbox", { name: "Always answer this way" })).toBeNull();
  });

  it("a refused rule still sends the answer", async () => {
    const { calls, answer } = renderForm(formOffer, { ok: false, error: { code: "rule-refused", message: "refused" } });
    await fireEvent.click(await always());
    await fireEvent.click(screen.getByRole("radio", { name: "Decline" }));
    await fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    await waitFor(() => expect(answer).toHaveBeenCalled());
    expect(calls).toEqual(["add:decline:session", "answer:declined"]);
  });
});

function approvalEntry(kind: "mcp" | "shell") {
  const action =
    kind === "shell"
      ? { kind: "shell", command: "rm -rf build" }
      : { kind: "mcp", server: "github", tool: "create_issue" };
  return entry(
    { kind: "approval", prompt: "Allow?", data: { agent: "Claude Code", project: "/home/ada/shop", tool: kind === "shell" ? "Bash" : "mcp__github__create_issue", action, input: { x: 1 } } },
    { server: undefined as unknown as string, agent: "Claude Code" },
  );
}

describe("ApprovalCard: allow again for this session", () => {
  it("offers the tick box unticked; ticked, Allow makes a session rule and then allows", async () => {
    const r = recorder({ allowed: true, actions: ["accept"], scopes: ["session"] });
    const e = approvalEntry("mcp");
    render(ApprovalCard, { props: { entry: e, answer: r.answer, rules: r.rules } });
    const box = (await screen.findByRole("checkbox", { name: "Allow this exact request again for this session" })) as HTMLInputElement;
    expect(box.checked).toBe(false);
    await fireEvent.click(box);
    await fireEvent.click(screen.getByRole("button", { name: "Allow" }));
    await waitFor(() => expect(r.answer).toHaveBeenCalled());
    expect(r.calls).toEqual(["add:accept:session", "answer:ok"]);
    expect(r.rules.add).toHaveBeenCalledWith({ questionId: e.request.id, action: "accept", scope: "session" });
  });

  it("unticked, Allow makes no rule; Deny never makes one", async () => {
    const r = recorder({ allowed: true, actions: ["accept"], scopes: ["session"] });
    render(ApprovalCard, { props: { entry: approvalEntry("mcp"), answer: r.answer, rules: r.rules } });
    const box = await screen.findByRole("checkbox", { name: /Allow this exact request again/ });
    await fireEvent.click(screen.getByRole("button", { name: "Allow" }));
    await waitFor(() => expect(r.answer).toHaveBeenCalledTimes(1));
    expect(r.rules.add).not.toHaveBeenCalled();
    document.body.innerHTML = "";
    const d = recorder({ allowed: true, actions: ["accept"], scopes: ["session"] });
    render(ApprovalCard, { props: { entry: approvalEntry("mcp"), answer: d.answer, rules: d.rules } });
    await fireEvent.click(await screen.findByRole("checkbox", { name: /Allow this exact request again/ }));
    await fireEvent.click(screen.getByRole("button", { name: "Deny" }));
    await waitFor(() => expect(d.answer).toHaveBeenCalled());
    expect(d.calls).toEqual(["answer:declined"]);
    void box;
  });

  it("a shell command: no tick box, main's reason shown quietly", async () => {
    const reason = "A shell command is allowed each time it asks, never by a rule.";
    const r = recorder({ allowed: false, reason, actions: [], scopes: [] });
    render(ApprovalCard, { props: { entry: approvalEntry("shell"), answer: r.answer, rules: r.rules } });
    expect(await screen.findByText(reason)).toBeTruthy();
    expect(screen.queryByRole("checkbox", { name: /Allow this exact request again/ })).toBeNull();
  });
});

function startApp(api = fakeApi()) {
  render(App, { props: { connection: { api, mode: "electron" } } });
  return api;
}

describe("App: a rule's answer, its Undo, and a refused rule", () => {
  afterEach(() => vi.useRealTimers());

  it("a question a rule answers shows 'Answered by your rule' with Undo, without taking the focus", async () => {
    const rule = ruleView();
    const api = startApp(fakeApi({ "rules:list": async () => ok([rule]), "rules:remove": async () => ok({ removed: true }) }));
    await screen.findByText(/No questions waiting/);
    const before = document.activeElement;
    const q = formEntry(schema, "Which branch?");
    api.emit("inbox:event", { type: "added", entry: q, byRule: rule.id });
    api.emit("inbox:event", { type: "answered", id: q.request.id, answer: { id: q.request.id, ok: true, data: { branch: "main" } }, by: "rule", ruleId: rule.id });
    const notes = screen.getByRole("status", { name: "Rule notes" });
    await waitFor(() => expect(notes.textContent).toContain(`Answered by your rule: ${rule.explanation}`));
    expect(document.activeElement).toBe(before);
    expect(screen.queryByRole("form", { name: "Question" })).toBeNull();
    await fireEvent.click(within(notes).getByRole("button", { name: "Undo" }));
    expect(api.fn("rules:remove")).toHaveBeenCalledWith({ id: rule.id });
    await waitFor(() => expect(notes.textContent).toContain("Rule removed. The next question like this comes to you."));
  });

  it("the note reads the explanation from main when the rule is not known yet, and goes after about 10 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const rule = ruleView({ id: "rule-late" });
    let listed: RuleView[] = [];
    const api = startApp(fakeApi({ "rules:list": async () => ok(listed) }));
    await vi.advanceTimersByTimeAsync(50);
    listed = [rule];
    api.emit("inbox:event", { type: "answered", id: "elc-x", answer: { id: "elc-x", ok: true }, by: "rule", ruleId: rule.id });
    await vi.advanceTimersByTimeAsync(50);
    const notes = screen.getByRole("status", { name: "Rule notes" });
    expect(notes.textContent).toContain(rule.explanation);
    await vi.advanceTimersByTimeAsync(8_000);
    expect(notes.textContent).toContain("Answered by your rule");
    await vi.advanceTimersByTimeAsync(3_000);
    expect(notes.textContent).not.toContain("Answered by your rule");
  });

  it("a refused rule is said in words, and the answer is still sent", async () => {
    const q = formEntry(schema, "Which branch?");
    const api = startApp(
      fakeApi({
        "inbox:list": async () => ok([q]),
        "rules:offer": async () => ok(formOffer),
        "rules:add": async () => ({ ok: false, error: { code: "rule-refused", message: '"Token" looks like a password, token or other credential; a rule never keeps one.' } }),
      }),
    );
    await fireEvent.click(await always());
    await fireEvent.click(screen.getByRole("radio", { name: "Decline" }));
    await fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    await waitFor(() => expect(api.fn("inbox:answer")).toHaveBeenCalledWith({ id: q.request.id, ok: false, reason: "declined" }));
    const notes = screen.getByRole("status", { name: "Rule notes" });
    await waitFor(() => expect(notes.textContent).toMatch(/No rule was made: "Token" looks like a password.*Your answer was sent\./));
  });
});

describe("Settings: Rules", () => {
  it("lists each rule's explanation, scope, uses and last use; Remove removes; rules:changed refreshes", async () => {
    const a = ruleView({ id: "rule-a", uses: 3, lastUsedAt: Date.now() - 5 * 60_000 });
    const b = ruleView({ id: "rule-b", scope: "always", explanation: "Decline the form (Branch) from everything (any tool), until you remove it.", action: "decline", data: undefined });
    const api = startApp(fakeApi({ "rules:list": async () => ok([a, b]), "rules:remove": async () => ok({ removed: true }) }));
    await fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    const list = await screen.findByRole("list", { name: "Your rules" });
    const items = within(list).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0].textContent).toContain(a.explanation);
    expect(items[0].textContent).toContain("Until the companion quits");
    expect(items[0].textContent).toContain("Used 3 times");
    expect(items[0].textContent).toContain("last used 5 min ago");
    expect(items[1].textContent).toContain("Until you remove it");
    expect(items[1].textContent).toContain("Not used yet");
    await fireEvent.click(within(items[1]).getByRole("button", { name: /^Remove/ }));
    expect(api.fn("rules:remove")).toHaveBeenCalledWith({ id: "rule-b" });
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(1));
    api.emit("rules:changed", [{ ...a, uses: 4 }]);
    await waitFor(() => expect(within(list).getByRole("listitem").textContent).toContain("Used 4 times"));
    api.emit("rules:changed", []);
    await screen.findByText(/No rules\./);
  });
});
