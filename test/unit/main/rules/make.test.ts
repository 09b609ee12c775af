// Which questions can have a rule, and why not: every refusal a person could meet, in words.
import { describe, expect, it } from "vitest";
import { approvalRequest } from "../../../../src/main/hooks/approval-request";
import { makeRule, offerFor } from "../../../../src/main/rules/make";
import type { PendingEntry, Request } from "../../../../src/shared/types";

const schema = {
  type: "object",
  properties: { branch: { type: "string", title: "Branch" }, count: { type: "integer", title: "How many", default: 1 } },
  required: ["branch"],
};
const entry = (request: Request, source: PendingEntry["source"] = { server: "github", tool: "deploy" }): PendingEntry => ({ request, source, receivedAt: 0 });
const form = (s: Record<string, unknown> = schema): Request => ({ id: "q", kind: "input", prompt: "Deploy which branch?", data: { schema: s } });

function refusal(made: ReturnType<typeof makeRule>): string {
  expect(made.ok).toBe(false);
  return made.ok ? "" : made.reason;
}

describe("makeRule for a server's form", () => {
  it("keeps server, tool, fingerprint, fields and the values as they would be sent (defaults applied)", () => {
    const made = makeRule(entry(form()), { action: "accept", data: { branch: "main" }, scope: "always" }, { now: 5, id: "r1" });
    expect(made).toEqual({
      ok: true,
      rule: {
        id: "r1",
        type: "form",
        server: "github",
        tool: "deploy",
        fingerprint: expect.stringMatching(/^sha256:/),
        fields: [{ key: "branch", title: "Branch" }, { key: "count", title: "How many" }],
        action: "accept",
        data: { branch: "main", count: 1 },
        scope: "always",
        prompt: "Deploy which branch?",
        createdAt: 5,
      },
    });
  });

  it("a decline keeps no values; a question that did not say its tool makes a rule for the server", () => {
    const made = makeRule(entry(form(), { server: "github" }), { action: "decline", scope: "session" });
    expect(made.ok && made.rule).toMatchObject({ type: "form", server: "github", action: "decline", scope: "session" });
    expect(made.ok && "tool" in made.rule).toBe(false);
    expect(made.ok && "data" in made.rule).toBe(false);
    expect(refusal(makeRule(entry(form()), { action: "decline", data: { branch: "x" }, scope: "session" }))).toMatch(/declines sends no values/);
  });

  it("refuses values that do not fit the form, with the check's words", () => {
    expect(refusal(makeRule(entry(form()), { action: "accept", data: { count: 2 }, scope: "session" }))).toMatch(/do not fit the form.*branch/);
  });

  it.each([
    ["a key", { type: "object", properties: { apiToken: { type: "string" } } }, { apiToken: "abc" }, /apiToken/],
    ["a title", { type: "object", properties: { k: { type: "string", title: "API key" } } }, { k: "abc" }, /API key/],
    ["format password", { type: "object", properties: { word: { type: "string", format: "password" } } }, { word: "abc" }, /word/],
    ["a PIN", { type: "object", properties: { pin: { type: "string" } } }, { pin: "1234" }, /pin/],
    ["a one-time code", { type: "object", properties: { c: { type: "string", title: "OTP" } } }, { c: "1234" }, /OTP/],
    ["a passphrase", { type: "object", properties: { passphrase: { type: "string" } } }, { passphrase: "x y z" }, /passphrase/],
    ["a secret", { type: "object", properties: { clientSecret: { type: "string" } } }, { clientSecret: "s" }, /clientSecret/],
  ])("refuses an accept that would keep a credential (%s)", (_what, s, data, field) => {
    const reason = refusal(makeRule(entry(form(s)), { action: "accept", data, scope: "always" }));
    expect(reason).toMatch(/never keeps one/);
    expect(reason).toMatch(field);
  });

  it("allows a form with a credential field when the rule declines, or the field is left empty", () => {
    const s = { type: "object", properties: { user: { type: "string" }, password: { type: "string" } } };
    expect(offerFor(entry(form(s)))).toEqual({ allowed: true, actions: ["accept", "decline"], scopes: ["session", "always"], credentialFields: ["password"] });
    expect(makeRule(entry(form(s)), { action: "decline", scope: "always" }).ok).toBe(true);
    expect(makeRule(entry(form(s)), { action: "accept", data: { user: "ada" }, scope: "always" }).ok).toBe(true);
  });

  it("refuses a value that is one of the person's saved secrets", () => {
    const redact = <T,>(v: T): T => JSON.parse(JSON.stringify(v).replaceAll("s3cr3t-value", "[secret]"));
    expect(refusal(makeRule(entry(form()), { action: "accept", data: { branch: "s3cr3t-value" }, scope: "always" }, { redact }))).toMatch(/saved secrets/);
  });

  it("never makes a rule for URL mode or a sign-in", () => {
    const url: Request = { id: "u", kind: "authorization", prompt: "Sign in to GitHub", url: "https://github.com/login/oauth/authorize?x=1" };
    expect(refusal(makeRule(entry(url), { action: "accept", scope: "session" }))).toMatch(/never opens a URL or signs in/);
    expect(refusal(makeRule(entry(url), { action: "decline", scope: "session" }))).toMatch(/never opens a URL/);
    expect(offerFor(entry(url))).toMatchObject({ allowed: false, actions: [], scopes: [] });
    // A form that carries a url is not a plain form either.
    expect(refusal(makeRule(entry({ ...form(), url: "https://x.example" }), { action: "decline", scope: "session" }))).toMatch(/never opens a URL/);
  });

  it("refuses forms an agent posted, other kinds, and forms that cannot be checked", () => {
    expect(refusal(makeRule(entry(form(), { agent: "cursor" }), { action: "decline", scope: "session" }))).toMatch(/posted by an agent/);
    expect(refusal(makeRule(entry({ id: "c", kind: "confirm", prompt: "ok?" }), { action: "accept", scope: "session" }))).toMatch(/"confirm" question/);
    expect(refusal(makeRule(entry({ ...form(), data: {} }), { action: "decline", scope: "session" }))).toMatch(/cannot be checked/);
  });
});

describe("makeRule for an agent's permission prompt", () => {
  const approval = (tool: string, toolInput: unknown, extra: Record<string, unknown> = {}) => {
    const request = approvalRequest("Claude Code", { tool, toolInput, cwd: "/home/ada/app", sessionId: "s1" }, { id: "h" });
    Object.assign(request.data, extra);
    return entry(request, { agent: "claude-code" });
  };

  it("allows an identical request again for this session only", () => {
    const e = approval("Edit", { file_path: "/home/ada/app/a.ts", old_string: "a", new_string: "b" });
    expect(offerFor(e)).toEqual({ allowed: true, actions: ["accept"], scopes: ["session"] });
    const made = makeRule(e, { action: "accept", scope: "session" });
    expect(made.ok && made.rule).toMatchObject({ type: "approval", agent: "Claude Code", tool: "Edit", project: "/home/ada/app", scope: "session", action: "accept" });
    expect(refusal(makeRule(e, { action: "accept", scope: "always" }))).toMatch(/this session only/);
    expect(refusal(makeRule(e, { action: "decline", scope: "session" }))).toMatch(/only allow it again/);
  });

  it("never for a shell command: by the posted action, by the tool and input, or by the tool's name", () => {
    expect(refusal(makeRule(approval("Bash", { command: "rm -rf build" }), { action: "accept", scope: "session" }))).toMatch(/shell command is always yours/);
    // The asker says "other", but the tool and input say shell.
    expect(refusal(makeRule(approval("Bash", { command: "ls" }, { action: { kind: "other" } }), { action: "accept", scope: "session" }))).toMatch(/shell/);
    expect(refusal(makeRule(approval("run_shell_command", { cmd: 1 }), { action: "accept", scope: "session" }))).toMatch(/shell/);
    expect(offerFor(approval("Bash", { command: "ls" }))).toMatchObject({ allowed: false, reason: expect.stringMatching(/shell/) });
  });

  it("not when the input was too large to compare exactly", () => {
    const big = approval("Write", { file_path: "/a", content: "x".repeat(70 * 1024) });
    expect(big.request.data?.inputOmitted).toBe(true);
    expect(refusal(makeRule(big, { action: "accept", scope: "session" }))).toMatch(/too large to compare/);
  });
});
