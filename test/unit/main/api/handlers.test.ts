import { describe, it, expect, beforeEach } from "vitest";
import { Inbox, InboxError } from "../../../../src/main/inbox";
import { createInboxHandlers, type InboxHandlers } from "../../../../src/main/inbox/handlers";
import { createSettingsHandlers, type SettingsHandlers } from "../../../../src/main/api/settings-handlers";
import { createToolHandlers, type ToolHandlers } from "../../../../src/main/mcp/tool-handlers";
import { SettingsState, type Platform } from "../../../../src/main/api/settings-state";
import { errorEnvelope, toEnvelope } from "../../../../src/main/rpc/envelope";
import { createMemoryStore } from "../../../../src/main/secrets";
import { standInSource } from "../../../helpers/stand-in-source";

const schema = { type: "object", properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 } }, required: ["name"] };

let inbox: Inbox;
let handlers: InboxHandlers & ToolHandlers & SettingsHandlers;
let opened: string[];
let startAtLogin: boolean;
let platform: Platform;
let rotations: number;

function setup(openExternal: Platform["openExternal"] = async (url) => void opened.push(url)) {
  inbox = new Inbox();
  opened = [];
  startAtLogin = false;
  rotations = 0;
  platform = {
    openExternal,
    getStartAtLogin: () => startAtLogin,
    setStartAtLogin: (v) => {
      startAtLogin = v;
    },
  };
  const secrets = createMemoryStore("memory for tests");
  const source = standInSource([
    { name: "demo_echo", server: "demo", tool: "echo", execute: async (args) => ({ content: [{ type: "text", text: `echo ${JSON.stringify(args)}` }] }) },
    {
      name: "demo_wait",
      server: "demo",
      tool: "wait",
      // What a zod-4 server sends: a draft 2020-12 `$schema` and a defaulted number.
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { afterMs: { type: "number", default: 200, minimum: 0 }, note: { type: "string", format: "email" } },
      },
      execute: async () => ({ content: [{ type: "text", text: "waited" }] }),
    },
  ]);
  const settings = new SettingsState(platform, secrets, () => true);
  handlers = {
    ...createInboxHandlers({ inbox, openExternal: (url) => platform.openExternal(url) }),
    ...createToolHandlers({ source: () => source }),
    ...createSettingsHandlers({ settings, secrets, rotateToken: async () => `token-${++rotations}` }),
  };
}

async function ask(request: Parameters<Inbox["waitFor"]>[0]) {
  const answered = inbox.waitFor(request, { source: { server: "demo" } });
  return answered;
}

describe("handlers", () => {
  beforeEach(() => setup());

  it("inbox:list lists pending questions and refuses an argument", async () => {
    void ask({ id: "q1", kind: "input", prompt: "Name?", data: { schema } });
    expect((await handlers["inbox:list"](undefined)).map((e) => e.request.id)).toEqual(["q1"]);
    await expect(handlers["inbox:list"]({ x: 1 })).rejects.toThrow(/takes no argument/);
  });

  it("inbox:answer delivers a valid answer and coerces through the Inbox", async () => {
    const waiting = ask({ id: "q1", kind: "input", prompt: "Name?", data: { schema } });
    const answer = await handlers["inbox:answer"]({ id: "q1", ok: true, data: { name: "Ada", age: 36 } });
    expect(answer).toEqual({ id: "q1", ok: true, data: { name: "Ada", age: 36 } });
    expect(await waiting).toEqual(answer);
  });

  it("inbox:answer refuses an invalid answer and keeps the question pending", async () => {
    void ask({ id: "q1", kind: "input", prompt: "Name?", data: { schema } });
    await expect(handlers["inbox:answer"]({ id: "q1", ok: true, data: { age: -1 } })).rejects.toBeInstanceOf(InboxError);
    expect(inbox.get("q1")).toBeDefined();
  });

  it("inbox:answer: a second answer is refused with unknown-id", async () => {
    void ask({ id: "q1", kind: "input", prompt: "Name?", data: { schema } });
    await handlers["inbox:answer"]({ id: "q1", ok: false, reason: "declined" });
    const envelope = await toEnvelope(() => handlers["inbox:answer"]({ id: "q1", ok: false, reason: "cancelled" }));
    expect(envelope).toMatchObject({ ok: false, error: { code: "unknown-id" } });
  });

  it.each([
    [undefined, /object argument/],
    [{ ok: true }, /"id"/],
    [{ id: "q1" }, /"ok"/],
    [{ id: "q1", ok: "yes" }, /"ok"/],
    [{ id: "q1", ok: true, data: [1] }, /"data"/],
    [{ id: "q1", ok: true, reason: "x" }, /only goes with ok: false/],
    [{ id: "q1", ok: false, reason: 3 }, /"reason"/],
  ])("inbox:answer refuses %j", async (arg, message) => {
    await expect(handlers["inbox:answer"](arg)).rejects.toThrow(message);
  });

  it("tools:run runs a tool by name and refuses unknown tools and bad args", async () => {
    expect(await handlers["tools:run"]({ tool: "demo_echo", args: { a: 1 } })).toEqual({ output: 'echo {"a":1}', isError: false });
    expect(await handlers["tools:run"]({ tool: "demo_echo" })).toEqual({ output: "echo {}", isError: false });
    await expect(handlers["tools:run"]({ tool: "nope", args: {} })).rejects.toThrow(/No connected server offers a tool named "nope"/);
    await expect(handlers["tools:run"]({ tool: "demo_echo", args: [1] })).rejects.toThrow(/"args" must be an object/);
    await expect(handlers["tools:run"]({ args: {} })).rejects.toThrow(/"tool"/);
  });

  it("forms:check answers with the Inbox's own verdict for a pending question's values", async () => {
    void ask({ id: "q1", kind: "input", prompt: "Name?", data: { schema } });
    expect(await handlers["forms:check"]({ id: "q1", data: { name: "Ada", age: "36" } })).toEqual({ ok: true, errors: [], fieldErrors: {} });
    const bad = await handlers["forms:check"]({ id: "q1", data: { name: "", age: -1 } });
    expect(bad).toEqual({
      ok: false,
      errors: ["name: is required", "age: must be >= 0"],
      fieldErrors: { name: ["is required"], age: ["must be >= 0"] },
    });
    // The page sees the verdict only: no prepared data travels back.
    expect(Object.keys(bad).sort()).toEqual(["errors", "fieldErrors", "ok"]);
    // What forms:check refuses, inbox:answer refuses too, and the question stays pending.
    await expect(handlers["inbox:answer"]({ id: "q1", ok: true, data: { name: "", age: -1 } })).rejects.toThrow(/age: must be >= 0/);
    expect(inbox.get("q1")).toBeDefined();
    expect(await handlers["forms:check"]({ id: "q1" })).toMatchObject({ ok: false, fieldErrors: { name: ["is required"] } });
  });

  it("forms:check reports form-level problems under the empty key", async () => {
    void ask({ id: "q2", kind: "input", prompt: "?", data: { schema: { type: "object", properties: {}, additionalProperties: false } } });
    const verdict = await handlers["forms:check"]({ id: "q2", data: { extra: "x" } });
    expect(verdict.ok).toBe(false);
    expect(verdict.fieldErrors[""]).toEqual(["must NOT have additional properties"]);
  });

  it("forms:check refuses an unknown id with unknown-id, and a question without a form", async () => {
    expect(await toEnvelope(() => handlers["forms:check"]({ id: "gone", data: {} }))).toMatchObject({ ok: false, error: { code: "unknown-id" } });
    void ask({ id: "u1", kind: "authorization", prompt: "Sign in", url: "https://example.com" });
    expect(await toEnvelope(() => handlers["forms:check"]({ id: "u1", data: {} }))).toMatchObject({ ok: false, error: { code: "not-a-form-question" } });
  });

  it.each([
    [undefined, /object argument/],
    [{ data: {} }, /"id"/],
    [{ id: 7, data: {} }, /"id"/],
    [{ id: "q1", data: [1] }, /"data" must be an object/],
    [{ id: "q1", data: "name=Ada" }, /"data" must be an object/],
  ])("forms:check refuses %j", async (arg, message) => {
    void ask({ id: "q1", kind: "input", prompt: "Name?", data: { schema } });
    const envelope = await toEnvelope(() => handlers["forms:check"](arg));
    expect(envelope).toMatchObject({ ok: false, error: { code: "invalid-argument", message: expect.stringMatching(message) } });
  });

  it("tools:check checks arguments against the tool's input schema, $schema and all", async () => {
    expect(await handlers["tools:check"]({ tool: "demo_wait", args: { afterMs: 3000 } })).toEqual({ ok: true, errors: [], fieldErrors: {} });
    expect(await handlers["tools:check"]({ tool: "demo_wait", args: {} })).toMatchObject({ ok: true });
    expect(await handlers["tools:check"]({ tool: "demo_wait", args: { afterMs: -1, note: "nope" } })).toEqual({
      ok: false,
      errors: ["afterMs: must be >= 0", "note: must be a valid email"],
      fieldErrors: { afterMs: ["must be >= 0"], note: ["must be a valid email"] },
    });
    expect(await toEnvelope(() => handlers["tools:check"]({ tool: "nope", args: {} }))).toMatchObject({ ok: false, error: { code: "unknown-tool" } });
    await expect(handlers["tools:check"]({ tool: "demo_wait", args: [1] })).rejects.toThrow(/"args" must be an object/);
    await expect(handlers["tools:check"]({ args: {} })).rejects.toThrow(/"tool"/);
  });

  it("url:open opens a pending authorization question's https url through the platform", async () => {
    void ask({ id: "u1", kind: "authorization", prompt: "Sign in", url: "https://example.com/auth?x=1" });
    expect(await handlers["url:open"]({ id: "u1" })).toEqual({ opened: true, url: "https://example.com/auth?x=1" });
    expect(opened).toEqual(["https://example.com/auth?x=1"]);
    expect(inbox.get("u1")).toBeDefined(); // opening is not answering
  });

  it("url:open in browser mode hands the url back for the page to open", async () => {
    setup(() => null);
    void ask({ id: "u1", kind: "authorization", prompt: "Sign in", url: "http://localhost:9/x" });
    expect(await handlers["url:open"]({ id: "u1" })).toEqual({ opened: false, url: "http://localhost:9/x" });
  });

  it("url:open refuses anything but a pending authorization question with an http(s) url", async () => {
    void ask({ id: "f1", kind: "input", prompt: "Name?", data: { schema } });
    void ask({ id: "j1", kind: "authorization", prompt: "x", url: "javascript:alert(1)" });
    void ask({ id: "b1", kind: "authorization", prompt: "x", url: "not a url" });
    await expect(handlers["url:open"]({ id: "f1" })).rejects.toThrow(/does not ask to open a URL/);
    await expect(handlers["url:open"]({ id: "j1" })).rejects.toThrow(/Only http\(s\)/);
    await expect(handlers["url:open"]({ id: "b1" })).rejects.toThrow(/does not parse/);
    await expect(handlers["url:open"]({ id: "gone" })).rejects.toThrow(/No pending question/);
    expect(opened).toEqual([]);
  });

  it("settings: pause, resume, start at login", async () => {
    const paused = await handlers["settings:pauseNotifications"]({ minutes: 60 });
    expect(paused.notificationsPaused).toBe(true);
    expect(paused.pausedUntil).toBeGreaterThan(Date.now());
    expect((await handlers["settings:pauseNotifications"]({ minutes: null })).pausedUntil).toBeUndefined();
    expect((await handlers["settings:resumeNotifications"](undefined)).notificationsPaused).toBe(false);
    await expect(handlers["settings:pauseNotifications"]({ minutes: -5 })).rejects.toThrow(/minutes/);
    await expect(handlers["settings:pauseNotifications"]({})).rejects.toThrow(/minutes/);
    expect((await handlers["settings:startAtLogin"]({ enabled: true })).startAtLogin).toBe(true);
    await expect(handlers["settings:startAtLogin"]({ enabled: "yes" })).rejects.toThrow(/"enabled"/);
  });

  it("settings:startAtLogin reports an unsupported platform as a clear error", async () => {
    platform.setStartAtLogin = () => {
      throw new Error("Start at login is not available in browser mode.");
    };
    const envelope = await toEnvelope(() => handlers["settings:startAtLogin"]({ enabled: true }));
    expect(envelope).toEqual({ ok: false, error: { code: "unsupported", message: "Start at login is not available in browser mode." } });
  });

  it("secrets: names only, the gateway token is off limits", async () => {
    const settings = await handlers["secrets:set"]({ name: "GITHUB_TOKEN", value: "s3cret" });
    expect(settings.secretNames).toEqual(["GITHUB_TOKEN"]);
    expect(JSON.stringify(settings)).not.toContain("s3cret");
    expect((await handlers["secrets:delete"]({ name: "GITHUB_TOKEN" })).secretNames).toEqual([]);
    await expect(handlers["secrets:set"]({ name: "bad name", value: "x" })).rejects.toThrow(/letters, digits/);
    await expect(handlers["secrets:set"]({ name: "gateway-token", value: "x" })).rejects.toThrow(/rotate/);
    await expect(handlers["secrets:set"]({ name: "A", value: "" })).rejects.toThrow(/"value"/);
  });

  it("secrets: reach's own credentials are set in When you are away, not listed here", async () => {
    await handlers["secrets:set"]({ name: "GITHUB_TOKEN", value: "s3cret" });
    const settings = await handlers["secrets:set"]({ name: "reach.ntfy.token", value: "tk_ntfy_123456" });
    expect(settings.secretNames).toEqual(["GITHUB_TOKEN"]);
  });

  it("gateway:rotateToken returns the new token once", async () => {
    expect(await handlers["gateway:rotateToken"](undefined)).toEqual({ token: "token-1" });
  });
});

describe("envelopes", () => {
  it("wraps values and errors", async () => {
    expect(await toEnvelope(async () => 3)).toEqual({ ok: true, value: 3 });
    expect(errorEnvelope(new InboxError("invalid-answer", "bad", ["name: required"]))).toEqual({
      ok: false,
      error: { code: "invalid-answer", message: "bad", details: ["name: required"] },
    });
    expect(errorEnvelope(new Error("boom"))).toEqual({ ok: false, error: { code: "failed", message: "boom" } });
    expect(errorEnvelope("plain")).toEqual({ ok: false, error: { code: "failed", message: "plain" } });
  });
});
