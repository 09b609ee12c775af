// Rules answering questions through a real Inbox, and lasting rules in a real file in a temp dir.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { approvalRequest } from "../../../../src/main/hooks/approval-request";
import { Inbox } from "../../../../src/main/inbox";
import { openRules } from "../../../../src/main/rules";
import { MAX_RULE_ANSWERS_PER_MINUTE, RuleRefusedError, RuleStore } from "../../../../src/main/rules/store";
import { writeRulesFile } from "../../../../src/main/rules/file";
import { SecretScrubber } from "../../../../src/main/secrets/scrub";
import type { Asker, InboxEvent, Request } from "../../../../src/shared/types";

const schema = {
  type: "object",
  properties: { branch: { type: "string", title: "Branch" }, env: { type: "string", enum: ["dev", "prod"] } },
  required: ["branch"],
};
let n = 0;
const form = (s: Record<string, unknown> = schema): Request => ({ id: `q${++n}`, kind: "input", prompt: "Deploy?", data: { schema: s } });
const github: Asker = { server: "github", tool: "deploy" };

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function setup(file?: string, redact?: <T>(value: T) => T) {
  const dir = mkdtempSync(path.join(tmpdir(), "rules-"));
  const rulesFile = file ?? path.join(dir, "data", "rules.json");
  const lines: string[] = [];
  const inbox = new Inbox();
  const events: InboxEvent[] = [];
  inbox.on((e) => events.push(e));
  const rules = openRules(inbox, { path: rulesFile, log: (l) => lines.push(l), ...(redact ? { redact } : {}) });
  cleanups.push(() => {
    rules.close();
    inbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, file: rulesFile, inbox, rules, events, lines };
}

/** Asks a question and makes the rule from it as the person would, answering that first one by hand. */
async function ruleFrom(s: ReturnType<typeof setup>, arg: { action: "accept" | "decline"; data?: Record<string, unknown>; scope: "session" | "always" }, source: Asker = github, request = form()) {
  const first = s.inbox.waitFor(request, { source });
  const view = s.rules.store.add(s.inbox.get(request.id)!, arg);
  s.inbox.answer(request.id, arg.action === "accept" ? { ok: true, data: arg.data } : { ok: false, reason: "declined" });
  await first;
  return view;
}

describe("a rule answers the next matching question at once", () => {
  it("accepts with the rule's values: waitFor resolves, the event says by rule with its id, nothing stays pending", async () => {
    const s = setup();
    const rule = await ruleFrom(s, { action: "accept", data: { branch: "main", env: "prod" }, scope: "session" });
    s.events.length = 0;
    const next = form();
    const answer = await s.inbox.waitFor(next, { source: { ...github, agent: "cursor" } });
    expect(answer).toEqual({ id: next.id, ok: true, data: { branch: "main", env: "prod" } });
    expect(s.events).toEqual([
      { type: "added", entry: expect.objectContaining({ request: next }), byRule: rule.id },
      { type: "answered", id: next.id, answer, by: "rule", ruleId: rule.id },
    ]);
    expect(s.inbox.list()).toEqual([]);
    expect(s.rules.store.list()[0]).toMatchObject({ id: rule.id, uses: 1, lastUsedAt: expect.any(Number), explanation: expect.stringMatching(/^Accept the form \(Branch, env\) from github's tool deploy sending Branch = "main"; env = "prod", until the companion quits\.$/) });
  });

  it("declines when the rule declines", async () => {
    const s = setup();
    const rule = await ruleFrom(s, { action: "decline", scope: "session" });
    const next = form();
    expect(await s.inbox.waitFor(next, { source: github })).toEqual({ id: next.id, ok: false, reason: "declined" });
    expect(s.events.at(-1)).toMatchObject({ type: "answered", by: "rule", ruleId: rule.id });
  });

  it("does not answer another server, another tool, or another form; those wait for the person", async () => {
    const s = setup();
    await ruleFrom(s, { action: "accept", data: { branch: "main" }, scope: "session" });
    const otherServer = form();
    void s.inbox.waitFor(otherServer, { source: { server: "gitlab", tool: "deploy" } });
    const otherTool = form();
    void s.inbox.waitFor(otherTool, { source: { server: "github", tool: "release" } });
    const noTool = form();
    void s.inbox.waitFor(noTool, { source: { server: "github" } });
    const otherForm = form({ ...schema, properties: { ...schema.properties, reason: { type: "string" } } });
    void s.inbox.waitFor(otherForm, { source: github });
    const agentPosted = form();
    void s.inbox.waitFor(agentPosted, { source: { agent: "github" } });
    expect(s.inbox.list().map((e) => e.request.id)).toEqual([otherServer.id, otherTool.id, noTool.id, otherForm.id, agentPosted.id]);
    expect(s.events.filter((e) => e.type === "answered" && e.by === "rule")).toEqual([]);
  });

  it("a rule made without a tool answers that server's same form from any tool", async () => {
    const s = setup();
    await ruleFrom(s, { action: "decline", scope: "session" }, { server: "github" });
    const next = form();
    expect(await s.inbox.waitFor(next, { source: { server: "github", tool: "anything" } })).toMatchObject({ ok: false, reason: "declined" });
  });

  it("a stale rule (the form changed) does not fire, and values that no longer fit leave the question to the person", async () => {
    const s = setup();
    await ruleFrom(s, { action: "accept", data: { branch: "main", env: "prod" }, scope: "always" });
    const changed = form({ ...schema, properties: { ...schema.properties, env: { type: "string", enum: ["dev", "staging"] } } });
    void s.inbox.waitFor(changed, { source: github });
    expect(s.inbox.get(changed.id)).toBeDefined();
    // The file is the person's to edit: a value edited out of range keeps the fingerprint but no longer fits.
    const saved = JSON.parse(readFileSync(s.file, "utf8"));
    saved.rules[0].data.env = "qa";
    writeFileSync(s.file, JSON.stringify(saved));
    const next = form();
    void s.inbox.waitFor(next, { source: github });
    expect(s.inbox.get(next.id)).toBeDefined();
    expect(s.lines.join("\n")).toMatch(/no longer fits this form .*env.*the question waits for the person/);
  });

  it("removing the rule (undo) stops it", async () => {
    const s = setup();
    const rule = await ruleFrom(s, { action: "decline", scope: "always" });
    const changes: number[] = [];
    s.rules.on((list) => changes.push(list.length));
    expect(s.rules.store.remove(rule.id)).toBe(true);
    expect(s.rules.store.remove(rule.id)).toBe(false);
    expect(changes).toEqual([0]);
    const next = form();
    void s.inbox.waitFor(next, { source: github });
    expect(s.inbox.get(next.id)).toBeDefined();
    expect(JSON.parse(readFileSync(s.file, "utf8")).rules).toEqual([]);
  });

  it("answers at most MAX_RULE_ANSWERS_PER_MINUTE a minute: a server asking in a loop reaches the person again", async () => {
    let now = 1_000_000;
    const inbox = new Inbox();
    const lines: string[] = [];
    const rules = openRules(inbox, { now: () => now, log: (l) => lines.push(l) });
    cleanups.push(() => inbox.close());
    const seed = form();
    void inbox.waitFor(seed, { source: github });
    rules.store.add(inbox.get(seed.id)!, { action: "decline", scope: "session" });
    inbox.answer(seed.id, { ok: false, reason: "declined" });
    for (let i = 0; i < MAX_RULE_ANSWERS_PER_MINUTE; i++) {
      now += 100;
      await expect(inbox.waitFor(form(), { source: github })).resolves.toMatchObject({ reason: "declined" });
    }
    const held = form();
    void inbox.waitFor(held, { source: github });
    expect(inbox.get(held.id)).toBeDefined();
    expect(lines.join("\n")).toMatch(/answered 30 questions in a minute; the next ones go to the person/);
    now += 60_000;
    await expect(inbox.waitFor(form(), { source: github })).resolves.toMatchObject({ reason: "declined" });
    expect(rules.store.list()[0]).toMatchObject({ uses: MAX_RULE_ANSWERS_PER_MINUTE + 1 });
  });

  it("the newest rule for the same form replaces the older one of its scope", async () => {
    const s = setup();
    // Both asked before any rule exists (once one does, the second would be answered by it).
    const a = form();
    const b = form();
    void s.inbox.waitFor(a, { source: github });
    void s.inbox.waitFor(b, { source: github });
    s.rules.store.add(s.inbox.get(a.id)!, { action: "decline", scope: "session" });
    const newer = s.rules.store.add(s.inbox.get(b.id)!, { action: "accept", data: { branch: "dev" }, scope: "session" });
    expect(s.rules.store.list().map((r) => r.id)).toEqual([newer.id]);
    expect(await s.inbox.waitFor(form(), { source: github })).toMatchObject({ ok: true, data: { branch: "dev" } });
  });
});

describe("session and lasting rules", () => {
  it("a new store reloads rules kept until removed, not session ones; the file is 0600 and holds no temp files", async () => {
    const s = setup();
    const always = await ruleFrom(s, { action: "accept", data: { branch: "main" }, scope: "always" });
    const other = { ...schema, properties: { branch: { type: "string" } } };
    await ruleFrom(s, { action: "decline", scope: "session" }, github, form(other));
    expect(s.rules.store.list()).toHaveLength(2);
    expect(statSync(s.file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(s.file))).toEqual(["rules.json"]);

    const fresh = new RuleStore({ path: s.file });
    expect(fresh.list().map((r) => [r.id, r.scope])).toEqual([[always.id, "always"]]);
    const inbox = new Inbox();
    inbox.setAutoAnswer((e) => fresh.autoAnswer(e));
    expect(await inbox.waitFor(form(), { source: github })).toMatchObject({ ok: true, data: { branch: "main" } });
    const sessionForm = form(other);
    void inbox.waitFor(sessionForm, { source: github });
    expect(inbox.get(sessionForm.id)).toBeDefined();
    inbox.close();
  });

  it("notices the file changed under it (the CLI removed a rule) and stops using that rule", async () => {
    const s = setup();
    await ruleFrom(s, { action: "decline", scope: "always" });
    writeRulesFile(s.file, []);
    const next = form();
    void s.inbox.waitFor(next, { source: github });
    expect(s.inbox.get(next.id)).toBeDefined();
    expect(s.rules.store.list()).toEqual([]);
  });

  it("an unreadable file is reported, set aside (not destroyed) on the next save, and never answers", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rules-bad-"));
    const file = path.join(dir, "rules.json");
    writeFileSync(file, "{ not json");
    const s = setup(file);
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    expect(s.lines.join("\n")).toMatch(/cannot be read \(it is not JSON/);
    await ruleFrom(s, { action: "decline", scope: "always" });
    const names = readdirSync(dir).sort();
    expect(names[0]).toBe("rules.json");
    expect(names[1]).toMatch(/^rules\.json\.unreadable-\d+$/);
    expect(readFileSync(path.join(dir, names[1]), "utf8")).toBe("{ not json");
  });

  it("left out of the file: credential values written by hand, and session or approval rules", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rules-hand-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "rules.json");
    const ok = { id: "ok", type: "form", server: "s", fingerprint: `sha256:${"a".repeat(32)}`, fields: [{ key: "user" }], action: "accept", data: { user: "ada" }, scope: "always", prompt: "", createdAt: 1 };
    writeFileSync(file, JSON.stringify({ rules: [ok, { ...ok, id: "pw", data: { password: "hunter2" } }, { ...ok, id: "ses", scope: "session" }, { ...ok, id: "ap", type: "approval" }, { ...ok, id: "ttl", fields: [{ key: "k", title: "API key" }], data: { k: "x" } }] }));
    const lines: string[] = [];
    const store = new RuleStore({ path: file, log: (l) => lines.push(l) });
    expect(store.list().map((r) => r.id)).toEqual(["ok"]);
    expect(lines.join("\n")).toMatch(/rule pw .*looks like a credential[\s\S]*rule ses[\s\S]*rule ap[\s\S]*rule ttl .*credential/);
  });

  it("never keeps one of the person's known secrets as a value (the app's scrubber, as core passes it)", () => {
    const scrubber = new SecretScrubber();
    const s = setup(undefined, (value) => scrubber.scrubValue(value));
    scrubber.register("gh-deploy-key-8d7f6e5a4b3c");
    const q = form();
    void s.inbox.waitFor(q, { source: github });
    expect(() => s.rules.store.add(s.inbox.get(q.id)!, { action: "accept", data: { branch: "gh-deploy-key-8d7f6e5a4b3c" }, scope: "always" })).toThrow(/one of your saved secrets/);
    expect(existsSync(s.file)).toBe(false);
  });

  it("without a file only session rules exist", () => {
    const inbox = new Inbox();
    const store = new RuleStore();
    const q = form();
    void inbox.waitFor(q, { source: github });
    expect(store.offer(inbox.get(q.id)!)).toMatchObject({ allowed: true, scopes: ["session"] });
    expect(() => store.add(inbox.get(q.id)!, { action: "decline", scope: "always" })).toThrow(RuleRefusedError);
    inbox.close();
  });
});

describe("approval rules", () => {
  const ask = (tool: string, toolInput: unknown, session = "s1") =>
    approvalRequest("Claude Code", { tool, toolInput, cwd: "/home/ada/app", sessionId: session });

  it("allow an identical request again, and only an identical one", async () => {
    const s = setup();
    const input = { file_path: "/home/ada/app/a.ts", old_string: "a", new_string: "b" };
    const first = ask("Edit", input);
    const pending = s.inbox.waitFor(first, { source: { agent: "claude-code" } });
    const rule = s.rules.store.add(s.inbox.get(first.id)!, { action: "accept", scope: "session" });
    s.inbox.answer(first.id, { ok: true });
    await pending;

    const again = ask("Edit", { new_string: "b", old_string: "a", file_path: "/home/ada/app/a.ts" });
    expect(await s.inbox.waitFor(again, { source: { agent: "claude-code" } })).toEqual({ id: again.id, ok: true });
    expect(s.events.at(-1)).toMatchObject({ type: "answered", by: "rule", ruleId: rule.id });

    for (const [different, source] of [
      [ask("Edit", { ...input, new_string: "c" }), { agent: "claude-code" }],
      [ask("Edit", input, "s2"), { agent: "claude-code" }],
      [ask("Edit", input), { agent: "codex" }],
    ] as const) {
      void s.inbox.waitFor(different, { source });
      expect(s.inbox.get(different.id)).toBeDefined();
    }
    // Session only: nothing of it reaches the file.
    expect(existsSync(s.file)).toBe(false);
  });
});
