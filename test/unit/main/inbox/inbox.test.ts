import { afterEach, describe, expect, it, vi } from "vitest";
import { Inbox, InboxError } from "../../../../src/main/inbox";
import { MAX_DECLINE_MESSAGE, MAX_PENDING_TOTAL, MAX_PROMPT_LENGTH, MAX_URL_LENGTH } from "../../../../src/shared/limits";
import type { InboxEvent, Request } from "../../../../src/shared/types";

const form = (id: string, schema: Record<string, unknown> = { type: "object", properties: { name: { type: "string" } } }): Request => ({
  id,
  kind: "input",
  prompt: `question ${id}`,
  data: { schema },
});

function recorder(inbox: Inbox) {
  const events: InboxEvent[] = [];
  inbox.on((e) => events.push(e));
  return events;
}

afterEach(() => vi.useRealTimers());

describe("Inbox", () => {
  it("lists pending questions in arrival order with who asks", () => {
    const inbox = new Inbox();
    void inbox.waitFor(form("a"), { source: { server: "github" } });
    void inbox.waitFor(form("b"), { source: { server: "jira", agent: "claude-code" } });
    expect(inbox.list().map((e) => [e.request.id, e.source])).toEqual([
      ["a", { server: "github" }],
      ["b", { server: "jira", agent: "claude-code" }],
    ]);
  });

  it("answers exactly once; a second answer or an unknown id is refused and changes nothing", async () => {
    const inbox = new Inbox();
    const events = recorder(inbox);
    const answer = inbox.waitFor(form("a"), { source: { server: "s" } });
    expect(inbox.answer("a", { ok: true, data: { name: "Ada" } })).toEqual({ id: "a", ok: true, data: { name: "Ada" } });
    await expect(answer).resolves.toEqual({ id: "a", ok: true, data: { name: "Ada" } });
    expect(() => inbox.answer("a", { ok: false, reason: "declined" })).toThrow(InboxError);
    expect(() => inbox.answer("nope", { ok: true })).toThrow(/No pending question has id "nope"/);
    expect(events.map((e) => e.type)).toEqual(["added", "answered"]);
    expect(inbox.list()).toEqual([]);
  });

  it("refuses an answer whose id names another question", () => {
    const inbox = new Inbox();
    void inbox.waitFor(form("a"), { source: { server: "s" } });
    expect(() => inbox.answer("a", { id: "b", ok: true })).toThrow(/not "a"/);
    expect(inbox.list()).toHaveLength(1);
  });

  it("a decline keeps its reason; a bare ok:false becomes cancelled", async () => {
    const inbox = new Inbox();
    const a = inbox.waitFor(form("a"), { source: { server: "s" } });
    const b = inbox.waitFor(form("b"), { source: { server: "s" } });
    inbox.answer("a", { ok: false, reason: "declined" });
    inbox.answer("b", { ok: false });
    await expect(a).resolves.toEqual({ id: "a", ok: false, reason: "declined" });
    await expect(b).resolves.toEqual({ id: "b", ok: false, reason: "cancelled" });
  });

  it("a decline of an agent's own question carries the person's note back; MCP kinds never do", async () => {
    const inbox = new Inbox();
    const approval = inbox.waitFor({ id: "p", kind: "approval", prompt: "Allow Bash?" }, { source: { agent: "claude-code" } });
    const mcp = inbox.waitFor(form("f"), { source: { server: "s" } });
    const cancelled = inbox.waitFor({ id: "c", kind: "approval", prompt: "Allow?" }, { source: { agent: "codex" } });
    inbox.answer("p", { ok: false, reason: "declined", data: { message: "x".repeat(5000), other: 1 } });
    inbox.answer("f", { ok: false, reason: "declined", data: { message: "no" } });
    inbox.answer("c", { ok: false, reason: "cancelled", data: { message: "ignored" } });
    await expect(approval).resolves.toEqual({ id: "p", ok: false, reason: "declined", data: { message: "x".repeat(MAX_DECLINE_MESSAGE) } });
    await expect(mcp).resolves.toEqual({ id: "f", ok: false, reason: "declined" });
    await expect(cancelled).resolves.toEqual({ id: "c", ok: false, reason: "cancelled" });
  });

  it("validates form answers: refuses with reasons and keeps the question pending", async () => {
    const inbox = new Inbox();
    const schema = {
      type: "object",
      properties: { email: { type: "string", format: "email" }, n: { type: "integer", minimum: 1, maximum: 9 } },
      required: ["email"],
    };
    const pending = inbox.waitFor(form("a", schema), { source: { server: "s" } });
    let error: InboxError | undefined;
    try {
      inbox.answer("a", { ok: true, data: { email: "not-an-email", n: 12 } });
    } catch (e) {
      error = e as InboxError;
    }
    expect(error?.code).toBe("invalid-answer");
    expect(error?.details).toEqual(expect.arrayContaining(["email: must be a valid email", expect.stringMatching(/^n: /)]));
    expect(inbox.list()).toHaveLength(1);
    inbox.answer("a", { ok: true, data: { email: "ada@example.com", n: "7" } });
    await expect(pending).resolves.toEqual({ id: "a", ok: true, data: { email: "ada@example.com", n: 7 } });
  });

  it("applies defaults to untouched fields and drops cleared optional ones", async () => {
    const inbox = new Inbox();
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", default: "Ada" },
        count: { type: "integer", default: 3 },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, default: ["a"] },
        note: { type: "string" },
      },
    };
    const pending = inbox.waitFor(form("a", schema), { source: { server: "s" } });
    inbox.answer("a", { ok: true, data: { count: 5, note: null as unknown as string, tags: [] } });
    await expect(pending).resolves.toEqual({ id: "a", ok: true, data: { name: "Ada", count: 5 } });
  });

  it("authorization answers carry no data", async () => {
    const inbox = new Inbox();
    const pending = inbox.waitFor({ id: "u", kind: "authorization", prompt: "Sign in", url: "https://example.com" }, { source: { server: "s" } });
    inbox.answer("u", { ok: true, data: { sneaky: "x" } });
    await expect(pending).resolves.toEqual({ id: "u", ok: true });
  });

  it("an expiresAt in the past answers expired at once and never shows", async () => {
    const inbox = new Inbox();
    const events = recorder(inbox);
    const answer = await inbox.waitFor({ ...form("a"), expiresAt: new Date(Date.now() - 1000).toISOString() }, { source: { agent: "bot" } });
    expect(answer).toEqual({ id: "a", ok: false, reason: "expired" });
    expect(inbox.list()).toEqual([]);
    expect(events).toEqual([expect.objectContaining({ type: "refused" })]);
  });

  it("expires a question when its expiresAt is reached while pending", async () => {
    vi.useFakeTimers();
    const inbox = new Inbox();
    const events = recorder(inbox);
    const answer = inbox.waitFor({ ...form("a"), expiresAt: new Date(Date.now() + 5000).toISOString() }, { source: { agent: "bot" } });
    await vi.advanceTimersByTimeAsync(4999);
    expect(inbox.list()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2);
    await expect(answer).resolves.toEqual({ id: "a", ok: false, reason: "expired" });
    expect(events.at(-1)).toMatchObject({ type: "withdrawn", id: "a", reason: "expired" });
  });

  it("withdraws a question when the asker's signal aborts, saying why", async () => {
    const inbox = new Inbox();
    const events = recorder(inbox);
    const controller = new AbortController();
    const answer = inbox.waitFor(form("a"), { source: { server: "s" }, signal: controller.signal });
    controller.abort(new Error("the server cancelled its question"));
    await expect(answer).resolves.toEqual({ id: "a", ok: false, reason: "cancelled" });
    expect(inbox.list()).toEqual([]);
    expect(events.at(-1)).toEqual({ type: "withdrawn", id: "a", reason: "aborted", message: "the server cancelled its question" });
    expect(() => inbox.answer("a", { ok: true })).toThrow(InboxError);
  });

  it("close() answers everything pending cancelled and refuses new questions", async () => {
    const inbox = new Inbox();
    const a = inbox.waitFor(form("a"), { source: { server: "s" } });
    const b = inbox.waitFor(form("b"), { source: { agent: "x" } });
    inbox.close();
    await expect(Promise.all([a, b])).resolves.toEqual([
      { id: "a", ok: false, reason: "cancelled" },
      { id: "b", ok: false, reason: "cancelled" },
    ]);
    await expect(inbox.waitFor(form("c"), { source: { server: "s" } })).resolves.toEqual({ id: "c", ok: false, reason: "cancelled" });
  });

  it("caps pending questions per source; the flood is cancelled at once and others still get in", async () => {
    const inbox = new Inbox({ maxPendingPerSource: 3 });
    const events = recorder(inbox);
    for (let i = 0; i < 3; i++) void inbox.waitFor(form(`f${i}`), { source: { server: "flood" } });
    const over = await inbox.waitFor(form("f3"), { source: { server: "flood" } });
    expect(over).toEqual({ id: "f3", ok: false, reason: "cancelled" });
    const refused = events.find((e) => e.type === "refused");
    expect(refused).toMatchObject({ type: "refused", reason: "flood already has 3 questions waiting (limit 3)" });
    void inbox.waitFor(form("calm"), { source: { server: "calm" } });
    expect(inbox.list().map((e) => e.request.id)).toEqual(["f0", "f1", "f2", "calm"]);
  });

  it("defaults the cap to 8 per source", async () => {
    const inbox = new Inbox();
    for (let i = 0; i < 8; i++) void inbox.waitFor(form(`f${i}`), { source: { server: "s" } });
    await expect(inbox.waitFor(form("f8"), { source: { server: "s" } })).resolves.toMatchObject({ ok: false, reason: "cancelled" });
    expect(inbox.list()).toHaveLength(8);
  });

  it("a duplicate pending id is refused without touching the first", async () => {
    const inbox = new Inbox();
    const first = inbox.waitFor(form("a"), { source: { agent: "x" } });
    await expect(inbox.waitFor(form("a"), { source: { agent: "y" } })).resolves.toMatchObject({ ok: false });
    inbox.answer("a", { ok: true, data: { name: "first" } });
    await expect(first).resolves.toMatchObject({ ok: true, data: { name: "first" } });
  });

  it("a throwing listener does not break the resolver or other listeners", async () => {
    const inbox = new Inbox();
    const seen: string[] = [];
    inbox.on(() => {
      throw new Error("bad view");
    });
    inbox.on((e) => seen.push(e.type));
    const a = inbox.waitFor(form("a"), { source: { server: "s" } });
    inbox.answer("a", { ok: true });
    await expect(a).resolves.toMatchObject({ ok: true });
    expect(seen).toEqual(["added", "answered"]);
  });
});

function deep(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < levels; i++) value = { next: value };
  return value;
}

// The backstop behind every entry point: whatever a server or agent sends, what the Inbox holds
// can be serialised for the pages, and its caps hold whoever asks.
describe("Inbox bounds and caps", () => {
  it.each([
    ["a schema nested 10k levels deep", { ...form("d"), data: { schema: deep(10_000) } }, /nested more than 64 levels/],
    ["a prompt longer than MAX_PROMPT_LENGTH", { ...form("p"), prompt: "x".repeat(MAX_PROMPT_LENGTH + 1) }, /prompt is longer/],
    ["a url longer than MAX_URL_LENGTH", { id: "u", kind: "authorization", prompt: "Sign in", url: `https://e.example/${"a".repeat(MAX_URL_LENGTH)}` }, /url/],
    ["a prompt that is not a string", { id: "n", kind: "input", prompt: 7 } as unknown as Request, /prompt is not a string/],
  ])("refuses %s at once, with a refused event views can serialise", async (_what, request, reason) => {
    const inbox = new Inbox();
    const events = recorder(inbox);
    const admission = inbox.admit(request as Request, { source: { server: "hostile" } });
    expect(admission).toMatchObject({ ok: false, kind: "invalid" });
    expect(!admission.ok && admission.reason).toMatch(reason);
    await expect(inbox.waitFor(request as Request, { source: { server: "hostile" } })).resolves.toMatchObject({ ok: false, reason: "cancelled" });
    expect(inbox.list()).toEqual([]);
    expect(events[0]).toMatchObject({ type: "refused", source: { server: "hostile" } });
    // The event carries a summary, never the hostile value itself.
    expect(() => JSON.stringify(events)).not.toThrow();
    expect(JSON.stringify(events).length).toBeLessThan(2000);
  });

  it("caps the whole Inbox at MAX_PENDING_TOTAL, whoever asks", async () => {
    const inbox = new Inbox();
    const events = recorder(inbox);
    for (let i = 0; i < MAX_PENDING_TOTAL; i++) void inbox.waitFor(form(`t${i}`), { source: { server: `s${i}` } });
    expect(inbox.list()).toHaveLength(MAX_PENDING_TOTAL);
    const over = inbox.admit(form("over"), { source: { server: "fresh" } });
    expect(over).toMatchObject({ ok: false, kind: "busy" });
    expect(!over.ok && over.reason).toMatch(new RegExp(`already holds ${MAX_PENDING_TOTAL} questions`));
    expect(events.at(-1)).toMatchObject({ type: "refused", request: { id: "over" } });
    inbox.answer("t0", { ok: true });
    expect(inbox.admit(form("now"), { source: { server: "fresh" } }).ok).toBe(true);
  });

  it("counts a question against every quota it is given, whatever the source's name", async () => {
    const inbox = new Inbox();
    const quotas = (conn: string) => [
      { key: "token:abc", max: 3, label: "Agents using this token" },
      { key: `connection:${conn}`, max: 2, label: "This connection" },
    ];
    expect(inbox.admit(form("a"), { source: { agent: "one" }, quotas: quotas("c1") }).ok).toBe(true);
    expect(inbox.admit(form("b"), { source: { agent: "two" }, quotas: quotas("c1") }).ok).toBe(true);
    const sameConnection = inbox.admit(form("c"), { source: { agent: "three" }, quotas: quotas("c1") });
    expect(sameConnection).toMatchObject({ ok: false, kind: "busy", reason: "This connection already has 2 questions waiting (limit 2)" });
    expect(inbox.admit(form("d"), { source: { agent: "four" }, quotas: quotas("c2") }).ok).toBe(true);
    const sameToken = inbox.admit(form("e"), { source: { agent: "five" }, quotas: quotas("c3") });
    expect(sameToken).toMatchObject({ ok: false, kind: "busy", reason: "Agents using this token already has 3 questions waiting (limit 3)" });
    // Answering frees the slot on every quota it held.
    inbox.answer("a", { ok: true });
    expect(inbox.admit(form("f"), { source: { agent: "six" }, quotas: quotas("c1") }).ok).toBe(true);
  });

  it("a duplicate id and a closed Inbox are refusals of their own kind", () => {
    const inbox = new Inbox();
    expect(inbox.admit(form("a"), { source: { server: "s" } }).ok).toBe(true);
    expect(inbox.admit(form("a"), { source: { server: "s" } })).toMatchObject({ ok: false, kind: "duplicate" });
    inbox.close();
    expect(inbox.admit(form("b"), { source: { server: "s" } })).toMatchObject({ ok: false, kind: "closed" });
  });
});


describe("Inbox autoAnswer (rules the person set)", () => {
  const schema = { type: "object", properties: { n: { type: "integer", minimum: 1 } }, required: ["n"] };

  it("answers right after the question is admitted, prepared like a person's answer, with by: rule and the rule id", async () => {
    const inbox = new Inbox({ autoAnswer: (entry) => (entry.source.server === "s" ? { ok: true, data: { n: "3" }, ruleId: "r1" } : undefined) });
    const events = recorder(inbox);
    // "3" is coerced to 3 as a typed answer would be.
    await expect(inbox.waitFor(form("a", schema), { source: { server: "s" } })).resolves.toEqual({ id: "a", ok: true, data: { n: 3 } });
    expect(events).toEqual([
      // Views learn with "added" that a rule answers it, so they neither notify nor open it.
      { type: "added", entry: expect.objectContaining({ request: form("a", schema) }), byRule: "r1" },
      { type: "answered", id: "a", answer: { id: "a", ok: true, data: { n: 3 } }, by: "rule", ruleId: "r1" },
    ]);
    void inbox.waitFor(form("b", schema), { source: { server: "other" } });
    expect(inbox.list().map((e) => e.request.id)).toEqual(["b"]);
    expect(events.at(-1)).toEqual({ type: "added", entry: expect.objectContaining({ request: form("b", schema) }) });
  });

  it("an answer that no longer fits the form does not fire: the question waits for the person and the rule is told why", () => {
    const refused: string[] = [];
    const inbox = new Inbox({ autoAnswer: () => ({ ok: true, data: { n: 0 }, ruleId: "stale", onRefused: (why) => refused.push(why) }) });
    const events = recorder(inbox);
    void inbox.waitFor(form("a", schema), { source: { server: "s" } });
    expect(inbox.get("a")).toBeDefined();
    expect(events).toEqual([{ type: "added", entry: expect.objectContaining({ request: form("a", schema) }) }]);
    expect(refused).toEqual([expect.stringMatching(/does not fit the form/)]);
    expect(inbox.answer("a", { ok: true, data: { n: 2 } })).toEqual({ id: "a", ok: true, data: { n: 2 } });
  });

  it("a throwing hook is no rule; setAutoAnswer sets and clears it; a person's answer carries no by", async () => {
    const inbox = new Inbox({
      autoAnswer: () => {
        throw new Error("broken rule store");
      },
    });
    const events = recorder(inbox);
    void inbox.waitFor(form("a"), { source: { server: "s" } });
    expect(inbox.get("a")).toBeDefined();
    const clear = inbox.setAutoAnswer(() => ({ ok: false, reason: "declined", ruleId: "r2" }));
    await expect(inbox.waitFor(form("b"), { source: { server: "s" } })).resolves.toEqual({ id: "b", ok: false, reason: "declined" });
    clear();
    void inbox.waitFor(form("c"), { source: { server: "s" } });
    expect(inbox.list().map((e) => e.request.id)).toEqual(["a", "c"]);
    inbox.answer("a", { ok: true, data: { name: "x" } });
    expect(events.filter((e) => e.type === "answered")).toEqual([
      { type: "answered", id: "b", answer: { id: "b", ok: false, reason: "declined" }, by: "rule", ruleId: "r2" },
      { type: "answered", id: "a", answer: { id: "a", ok: true, data: { name: "x" } } },
    ]);
  });
});
