// Questions over HTTP: agents post their own Requests to /v1/requests and get the person's Answer back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request as httpRequest } from "node:http";
import { companionWaitFor, CompanionError } from "../../src/main/cli/companion-client";
import type { Request } from "../../src/shared/types";
import { nextQuestion, rawRequest, startCompanion, until, type Companion } from "./gateway-harness";

let companion: Companion;
let endpoint: string;
let host: string;

beforeAll(async () => {
  companion = await startCompanion({ everything: false });
  endpoint = `${companion.listener.url}/v1/requests`;
  host = new URL(companion.listener.url).host;
});
afterAll(async () => {
  await companion?.close();
});

function post(body: unknown, extra: Record<string, string> = {}) {
  return rawRequest(endpoint, {
    headers: { host, "content-type": "application/json", authorization: `Bearer ${companion.token}`, ...extra },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("companionWaitFor", () => {
  it("round-trips a Request to the person and back", async () => {
    const waitFor = companionWaitFor({ url: companion.listener.url, token: companion.token, agent: "deploy-bot" });
    const request: Request = {
      id: "deploy-1",
      kind: "input",
      prompt: "Which environment?",
      data: { schema: { type: "object", properties: { env: { type: "string", enum: ["staging", "prod"] } }, required: ["env"] } },
    };
    const question = nextQuestion(companion, (e) => e.request.id === "deploy-1");
    const pending = waitFor(request);
    const entry = await question;
    expect(entry.source).toEqual({ agent: "deploy-bot" });
    expect(entry.request).toEqual(request);
    companion.inbox.answer("deploy-1", { ok: true, data: { env: "staging" } });
    expect(await pending).toEqual({ id: "deploy-1", ok: true, data: { env: "staging" } });
  });

  it("names the caller \"agent\" without X-Agent-Name, and returns a decline as given", async () => {
    const waitFor = companionWaitFor({ url: companion.listener.url, token: companion.token });
    const question = nextQuestion(companion, (e) => e.request.id === "approve-1");
    const pending = waitFor({ id: "approve-1", kind: "approval", prompt: "Delete the branch?" });
    expect((await question).source).toEqual({ agent: "agent" });
    companion.inbox.answer("approve-1", { ok: false, reason: "declined" });
    expect(await pending).toEqual({ id: "approve-1", ok: false, reason: "declined" });
  });

  it("reads url and token from the environment", async () => {
    const saved = { url: process.env.TOOLNEXUS_COMPANION_URL, token: process.env.TOOLNEXUS_COMPANION_TOKEN };
    process.env.TOOLNEXUS_COMPANION_URL = companion.listener.url;
    process.env.TOOLNEXUS_COMPANION_TOKEN = companion.token;
    try {
      const waitFor = companionWaitFor();
      const question = nextQuestion(companion, (e) => e.request.id === "env-1");
      const pending = waitFor({ id: "env-1", kind: "input", prompt: "?" });
      await question;
      companion.inbox.answer("env-1", { ok: true, data: { x: 1 } });
      expect(await pending).toEqual({ id: "env-1", ok: true, data: { x: 1 } });
    } finally {
      process.env.TOOLNEXUS_COMPANION_URL = saved.url;
      process.env.TOOLNEXUS_COMPANION_TOKEN = saved.token;
      if (saved.url === undefined) delete process.env.TOOLNEXUS_COMPANION_URL;
      if (saved.token === undefined) delete process.env.TOOLNEXUS_COMPANION_TOKEN;
    }
  });

  it("answers a Request that expires before the person answers \"expired\"", async () => {
    const waitFor = companionWaitFor({ url: companion.listener.url, token: companion.token });
    const expiresAt = new Date(Date.now() + 600).toISOString();
    const answer = await waitFor({ id: "soon-1", kind: "input", prompt: "Quick!", expiresAt });
    expect(answer).toEqual({ id: "soon-1", ok: false, reason: "expired" });
    expect(companion.inbox.get("soon-1")).toBeUndefined();
    // Already past: answered expired at once, never shown.
    expect(await waitFor({ id: "past-1", kind: "input", prompt: "Too late", expiresAt: "2020-01-01T00:00:00Z" })).toEqual({
      id: "past-1",
      ok: false,
      reason: "expired",
    });
  });

  it("withdraws the question when the caller aborts (closes the connection)", async () => {
    const waitFor = companionWaitFor({ url: companion.listener.url, token: companion.token });
    const controller = new AbortController();
    const question = nextQuestion(companion, (e) => e.request.id === "abort-1");
    const pending = waitFor({ id: "abort-1", kind: "input", prompt: "?" }, { signal: controller.signal }).catch((e: Error) => e);
    await question;
    controller.abort();
    await until(() => companion.withdrawn.includes("abort-1"));
    expect(companion.inbox.get("abort-1")).toBeUndefined();
    expect(await pending).toBeInstanceOf(Error);
  });

  it("keeps a long wait alive with whitespace the JSON parser skips", async () => {
    const waitFor = companionWaitFor({ url: companion.listener.url, token: companion.token });
    const question = nextQuestion(companion, (e) => e.request.id === "slow-1");
    const pending = waitFor({ id: "slow-1", kind: "input", prompt: "take your time" });
    await question;
    await new Promise((r) => setTimeout(r, 700)); // > 3 heartbeats at 200 ms in the harness
    companion.inbox.answer("slow-1", { ok: true });
    expect(await pending).toEqual({ id: "slow-1", ok: true });
  });

  it("says clearly when the companion is not running, or the token is wrong", async () => {
    const down = companionWaitFor({ url: "http://127.0.0.1:9", token: "x" });
    await expect(down({ id: "d", kind: "input", prompt: "?" })).rejects.toThrow(/not running/);
    const wrong = companionWaitFor({ url: companion.listener.url, token: "wrong" });
    const error = await wrong({ id: "w", kind: "input", prompt: "?" }).catch((e: CompanionError) => e);
    expect(error).toBeInstanceOf(CompanionError);
    // The companion's proof does not match a wrong token, so the token is never sent at all.
    expect((error as CompanionError).message).toMatch(/could not prove it is the companion\); if the companion does run there, the token given is not its current one/);
  });
});

describe("/v1/requests list and withdraw", () => {
  it("GET lists and DELETE withdraws only with the capability the POST was answered with, never by X-Agent-Name", async () => {
    const question = nextQuestion(companion, (e) => e.request.id === "del-1");
    const body = JSON.stringify({ id: "del-1", kind: "input", prompt: "?" });
    let capability = "";
    const pending = new Promise<unknown>((resolve) => {
      const req = httpRequest(endpoint, { method: "POST", headers: { host, authorization: `Bearer ${companion.token}`, "content-type": "application/json", "x-agent-name": "owner" } }, (res) => {
        capability = String(res.headers["x-request-capability"]);
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString("utf8")));
        res.on("end", () => resolve(JSON.parse(text)));
      });
      req.end(body);
    });
    await question;
    await until(() => capability !== "");

    const auth = { host, authorization: `Bearer ${companion.token}` };
    const owner = { ...auth, "x-request-capability": capability };
    const list = await rawRequest(endpoint, { method: "GET", headers: owner });
    expect(list.status).toBe(200);
    const entries = (JSON.parse(list.body) as { entries: Array<{ request: Request; source: unknown }> }).entries;
    expect(entries.map((e) => e.request.id)).toEqual(["del-1"]);
    expect(entries[0].source).toEqual({ agent: "owner" });
    const anyone = await rawRequest(endpoint, { method: "GET", headers: { ...auth, "x-agent-name": "owner" } });
    expect(JSON.parse(anyone.body)).toEqual({ entries: [] });

    const other = await rawRequest(`${endpoint}/del-1`, { method: "DELETE", headers: { ...auth, "x-agent-name": "owner" } });
    expect(other.status).toBe(404);
    expect(companion.inbox.get("del-1")).toBeDefined();
    const missing = await rawRequest(`${endpoint}/nope`, { method: "DELETE", headers: owner });
    expect(missing.status).toBe(404);

    const ok = await rawRequest(`${endpoint}/del-1`, { method: "DELETE", headers: owner });
    expect(ok.status).toBe(200);
    expect(await pending).toEqual({ id: "del-1", ok: false, reason: "cancelled" });
    expect(companion.inbox.get("del-1")).toBeUndefined();
    expect(companion.withdrawn).toContain("del-1");
  });
});

describe("/v1/requests validation: 400 with the reason, nothing enters the Inbox", () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ["malformed JSON", '{"id": "x", ', /not valid JSON/],
    ["an array", [{ id: "a", kind: "input", prompt: "?" }], /one Request object/],
    ["missing id", { kind: "input", prompt: "?" }, /Missing "id"/],
    ["missing kind", { id: "v1", prompt: "?" }, /Missing "kind"/],
    ["missing prompt", { id: "v1", kind: "input" }, /Missing "prompt"/],
    ["a numeric id", { id: 7, kind: "input", prompt: "?" }, /"id" must be a string/],
    ["a non-string prompt", { id: "v1", kind: "input", prompt: { text: "?" } }, /"prompt" must be a string/],
    ["data that is not an object", { id: "v1", kind: "input", prompt: "?", data: [1] }, /"data" must be an object/],
    ["an unknown key", { id: "v1", kind: "input", prompt: "?", title: "x" }, /Unknown key "title"/],
    ["authorization without url", { id: "v1", kind: "authorization", prompt: "Sign in" }, /http\(s\) "url"/],
    ["authorization with a javascript: url", { id: "v1", kind: "authorization", prompt: "Sign in", url: "javascript:alert(1)" }, /http\(s\) "url"/],
    ["expiresAt not RFC 3339", { id: "v1", kind: "input", prompt: "?", expiresAt: "tomorrow" }, /RFC 3339/],
    ["expiresAt without offset", { id: "v1", kind: "input", prompt: "?", expiresAt: "2030-01-01T00:00:00" }, /RFC 3339/],
    // V8's Date.parse rolls these over into the next month; they are not days.
    ["an impossible expiresAt (Feb 30)", { id: "v1", kind: "input", prompt: "?", expiresAt: "2030-02-30T00:00:00Z" }, /RFC 3339/],
    ["an impossible expiresAt (Apr 31)", { id: "v1", kind: "input", prompt: "?", expiresAt: "2026-04-31T10:00:00+02:00" }, /RFC 3339/],
    ["data nested 10k levels deep", `{"id":"v1","kind":"input","prompt":"?","data":${'{"d":'.repeat(10_000)}{}${"}".repeat(10_000)}}`, /nested more than 64 levels/],
    ["a prompt longer than 20000 characters", { id: "v1", kind: "input", prompt: "x".repeat(20_001) }, /"prompt" is longer/],
  ];
  for (const [what, body, reason] of cases) {
    it(`refuses ${what}`, async () => {
      const before = companion.added.length;
      const res = await post(body);
      expect(res.status).toBe(400);
      expect((JSON.parse(res.body) as { error: { message: string } }).error.message).toMatch(reason);
      expect(companion.added.length).toBe(before);
    });
  }

  it("refuses a duplicate pending id", async () => {
    const waitFor = companionWaitFor({ url: companion.listener.url, token: companion.token });
    const question = nextQuestion(companion, (e) => e.request.id === "dup-1");
    const first = waitFor({ id: "dup-1", kind: "input", prompt: "?" });
    await question;
    const before = companion.added.length;
    const res = await post({ id: "dup-1", kind: "input", prompt: "again" });
    expect(res.status).toBe(400);
    expect(res.body).toMatch(/already pending/);
    expect(companion.added.length).toBe(before);
    companion.inbox.answer("dup-1", { ok: true });
    await first;
  });

  it("refuses an oversize body, declared or streamed", async () => {
    const before = companion.added.length;
    const big = JSON.stringify({ id: "big", kind: "input", prompt: "x".repeat(5 * 1024 * 1024) });
    const declared = await post(big);
    expect(declared.status).toBe(400);
    expect(declared.body).toMatch(/4 MiB/);
    const streamed = await rawRequest(endpoint, {
      headers: { host, "content-type": "application/json", authorization: `Bearer ${companion.token}` },
      body: big,
      chunked: true,
    });
    expect(streamed.status).toBe(400);
    expect(streamed.body).toMatch(/4 MiB/);
    expect(companion.added.length).toBe(before);
  });

  it("accepts an authorization request with an https url and a valid expiresAt", async () => {
    const question = nextQuestion(companion, (e) => e.request.id === "auth-1");
    const res = post({ id: "auth-1", kind: "authorization", prompt: "Sign in", url: "https://example.com/login", expiresAt: "2099-01-01T00:00:00+02:00" });
    await question;
    companion.inbox.answer("auth-1", { ok: true });
    const done = await res;
    expect(done.status).toBe(200);
    expect(JSON.parse(done.body)).toEqual({ id: "auth-1", ok: true });
  });
});

describe("/v1/requests flood cap: per token and connection, never per X-Agent-Name", () => {
  it("opens at most MAX_PENDING_PER_CALLER questions whatever names the caller picks; the rest get 429 with Retry-After", async () => {
    const { MAX_PENDING_PER_CALLER } = await import("../../src/shared/limits");
    const before = companion.added.length;
    const refusals: string[] = [];
    const off = companion.inbox.on((e) => {
      if (e.type === "refused") refusals.push(e.request.id);
    });
    const total = MAX_PENDING_PER_CALLER + 14;
    const replies = Array.from({ length: total }, (_, i) => post({ id: `flood-${i}`, kind: "input", prompt: `flood ${i}` }, { "x-agent-name": `agent-${i}` }));
    await until(() => companion.added.length - before + refusals.length >= total);
    off();
    const pending = companion.inbox.list().filter((e) => e.request.id.startsWith("flood-"));
    expect(pending).toHaveLength(MAX_PENDING_PER_CALLER);
    // Refusals show in the views too.
    expect(refusals).toHaveLength(total - MAX_PENDING_PER_CALLER);
    for (const entry of pending) companion.inbox.answer(entry.request.id, { ok: false, reason: "declined" });
    const done = await Promise.all(replies);
    const refused = done.filter((r) => r.status === 429);
    expect(refused).toHaveLength(total - MAX_PENDING_PER_CALLER);
    for (const r of refused) {
      expect(r.headers["retry-after"]).toMatch(/^\d+$/);
      const body = JSON.parse(r.body) as { error: { status: number; message: string }; ok?: unknown };
      expect(body.error.status).toBe(429);
      expect(body.error.message).toMatch(/Too many questions waiting/);
      // Never an Answer an agent could take for the person's cancel.
      expect(body.ok).toBeUndefined();
    }
    expect(done.filter((r) => r.status === 200).map((r) => JSON.parse(r.body).reason)).toEqual(Array(MAX_PENDING_PER_CALLER).fill("declined"));
  });

  it("companionWaitFor surfaces a 429 as a CompanionError with the status", async () => {
    const { MAX_PENDING_PER_CALLER } = await import("../../src/shared/limits");
    const waitFor = companionWaitFor({ url: companion.listener.url, token: companion.token, agent: "busy-bot" });
    const held = Array.from({ length: MAX_PENDING_PER_CALLER }, (_, i) => waitFor({ id: `hold-${i}`, kind: "input", prompt: "?" }));
    await until(() => companion.inbox.list().filter((e) => e.request.id.startsWith("hold-")).length === MAX_PENDING_PER_CALLER);
    const error = await waitFor({ id: "hold-over", kind: "input", prompt: "?" }).catch((e: CompanionError) => e);
    expect(error).toBeInstanceOf(CompanionError);
    expect((error as CompanionError).status).toBe(429);
    for (let i = 0; i < MAX_PENDING_PER_CALLER; i++) companion.inbox.answer(`hold-${i}`, { ok: true });
    await Promise.all(held);
  });
});

