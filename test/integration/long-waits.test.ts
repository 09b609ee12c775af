// The gateway keeping an agent waiting on its person, in seconds rather than minutes: a real
// companion with server-everything (stdio), agents on the SDK client over streamable HTTP, and a
// person who answers late. Heartbeats reach a call that sent a progress token while its question
// is open; an agent that opted into long waits gets "not answered yet" at its deadline, then the
// real result from toolnexus_wait once, and the tool runs once. The same with the client libraries
// agents use, at the real 60 s timeouts, is test/interop/long-waits.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport, type Client, type StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { everythingStdioCommand } from "../fixtures";
import { connectAgent, nextQuestion, startCompanion, textOf, until, type Companion } from "./gateway-harness";

const TOOL = "everything_trigger-elicitation-request";
const DEADLINE_MS = 1_500;

let companion: Companion;
const agents: Client[] = [];

beforeAll(async () => {
  companion = await startCompanion({
    config: { mcpServers: { everything: everythingStdioCommand() } },
    longWaits: { agents: { "waits-long": true, "waits-long-too": true, "does-not": false }, deadlineMs: DEADLINE_MS },
  });
}, 30_000);

afterAll(async () => {
  for (const agent of agents) await agent.close().catch(() => {});
  await companion?.close();
});

async function agent(name: string): Promise<Client> {
  const client = await connectAgent(companion, name);
  agents.push(client);
  return client;
}

function callId(text: string): string {
  const match = /"call": "(tnw_[A-Za-z0-9_-]+)"/.exec(text);
  if (!match) throw new Error(`no call id in: ${text}`);
  return match[1];
}

const answer = { ok: true, data: { name: "Ada Lovelace", email: "ada@example.com", integer: 7, check: true } };

describe("long waits through the gateway", () => {
  it("lists toolnexus_wait only to an agent that opted in", async () => {
    const [long, plain] = await Promise.all([agent("waits-long"), agent("does-not")]);
    const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
    expect(await names(long)).toContain("toolnexus_wait");
    expect(await names(plain)).not.toContain("toolnexus_wait");
    const wait = (await long.listTools()).tools.find((t) => t.name === "toolnexus_wait");
    expect(wait?.inputSchema).toMatchObject({ type: "object", required: ["call"] });
    expect(wait?.description).toMatch(/returns the real result once/);
    // To an agent that did not opt in, the name is no tool at all.
    await expect(plain.callTool({ name: "toolnexus_wait", arguments: { call: "tnw_x" } })).rejects.toThrow(/Unknown tool/);
  });

  it("sends heartbeats while the question is open, increasing and worded for a person, and stops when it ends", async () => {
    const client = await agent("heartbeat-agent");
    const before = companion.added.length;
    const seen: Array<{ progress: number; total?: number; message?: string }> = [];
    const call = client.callTool({ name: TOOL, arguments: {} }, { onprogress: (p) => seen.push(p), resetTimeoutOnProgress: true, timeout: 30_000 });
    const entry = await nextQuestion(companion, (e) => companion.added.indexOf(e) >= before);
    // The first at once, then one per 5 s.
    await until(() => seen.length >= 2, 15_000);
    companion.inbox.answer(entry.request.id, answer);
    const result = await call;
    expect(textOf(result)).toContain("- Name: Ada Lovelace");
    expect(seen[0].message).toBe("Waiting for you to answer the question in Toolnexus Companion.");
    expect(seen[1].message).toMatch(/^Waiting for you to answer the question in Toolnexus Companion \(\d+ s so far\)\.$/);
    for (const p of seen) expect(p.total).toBeUndefined();
    for (let i = 1; i < seen.length; i++) expect(seen[i].progress).toBeGreaterThan(seen[i - 1].progress);
    const count = seen.length;
    // Nothing after the result (the question ended with it).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.length).toBe(count);
  }, 30_000);

  it("returns 'not answered yet' at the deadline, then the real result once from toolnexus_wait, running the tool once", async () => {
    const client = await agent("waits-long");
    const before = companion.added.length;
    const started = Date.now();
    const first = await client.callTool({ name: TOOL, arguments: {} });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    const text = textOf(first);
    expect(text).toMatch(/^The person has not answered yet: everything_trigger-elicitation-request is waiting for them to answer a question in Toolnexus Companion/);
    expect(text).toContain("call the tool toolnexus_wait");
    expect(first.isError).toBeFalsy();
    const id = callId(text);
    // The question stays open meanwhile.
    const entry = await nextQuestion(companion, (e) => companion.added.indexOf(e) >= before);
    expect(companion.inbox.list().map((e) => e.request.id)).toContain(entry.request.id);

    // Waiting again before the person answers: the same "not yet", the same id.
    const again = await client.callTool({ name: "toolnexus_wait", arguments: { call: id } });
    expect(callId(textOf(again))).toBe(id);
    expect(textOf(again)).toMatch(/has not answered yet/);

    // Another agent (another name on the same token) cannot claim it: to it, no such call exists.
    const other = await agent("waits-long-too");
    const stranger = await other.callTool({ name: "toolnexus_wait", arguments: { call: id } });
    expect(stranger.isError).toBe(true);
    expect(textOf(stranger)).toMatch(/No call is waiting under the id/);
    const waiting = client.callTool({ name: "toolnexus_wait", arguments: { call: id } });
    setTimeout(() => companion.inbox.answer(entry.request.id, answer), 300);
    const result = await waiting;
    expect(textOf(result)).toContain("- Name: Ada Lovelace");
    expect(result.isError).toBeFalsy();
    // Once: a second claim finds nothing, and the tool ran once (one question in all).
    const twice = await client.callTool({ name: "toolnexus_wait", arguments: { call: id } });
    expect(twice.isError).toBe(true);
    expect(textOf(twice)).toMatch(/No call is waiting under the id/);
    expect(companion.added.length - before).toBe(1);
  }, 30_000);

  it("does the same for an agent on the 2026-07-28 wire, which has no session: toolnexus_wait claims its parked call", async () => {
    const client = new ModernClient({ name: "waits-long", version: "1.0.0" }, { capabilities: {}, versionNegotiation: { mode: "auto" } });
    await client.connect(new ModernTransport(new URL(companion.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${companion.token}` } } }));
    agents.push(client);
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("toolnexus_wait");
    const before = companion.added.length;
    const id = callId(textOf(await client.callTool({ name: TOOL, arguments: {} })));
    const entry = await nextQuestion(companion, (e) => companion.added.indexOf(e) >= before);
    const waiting = client.callTool({ name: "toolnexus_wait", arguments: { call: id } });
    setTimeout(() => companion.inbox.answer(entry.request.id, answer), 300);
    const result = await waiting;
    expect(textOf(result)).toContain("- Name: Ada Lovelace");
    expect(companion.added.length - before).toBe(1);
  }, 30_000);

  it("keeps a parked call when its session ends: the same agent claims it from a new session", async () => {
    const first = await agent("waits-long");
    const before = companion.added.length;
    const id = callId(textOf(await first.callTool({ name: TOOL, arguments: {} })));
    const entry = await nextQuestion(companion, (e) => companion.added.indexOf(e) >= before);
    // The session ends (DELETE): its calls are aborted, but a parked call is no longer its own.
    const sessions = companion.gateway.sessions().length;
    await (first.transport as StreamableHTTPClientTransport).terminateSession();
    await first.close();
    await until(() => companion.gateway.sessions().length < sessions, 5_000);
    expect(companion.withdrawn).not.toContain(entry.request.id);
    const second = await agent("waits-long");
    const waiting = second.callTool({ name: "toolnexus_wait", arguments: { call: id } });
    setTimeout(() => companion.inbox.answer(entry.request.id, answer), 300);
    expect(textOf(await waiting)).toContain("- Name: Ada Lovelace");
  }, 30_000);

  it("still lets the agent cancel a call before it is parked, which withdraws its question", async () => {
    const client = await agent("waits-long");
    const before = companion.added.length;
    const cancel = new AbortController();
    const call = client.callTool({ name: TOOL, arguments: {} }, { signal: cancel.signal });
    const entry = await nextQuestion(companion, (e) => companion.added.indexOf(e) >= before);
    cancel.abort(new Error("not now"));
    await expect(call).rejects.toThrow();
    await until(() => companion.withdrawn.includes(entry.request.id), 10_000);
  }, 30_000);

  it("answers within the deadline as any call does", async () => {
    const client = await agent("waits-long");
    const before = companion.added.length;
    const call = client.callTool({ name: TOOL, arguments: {} });
    const entry = await nextQuestion(companion, (e) => companion.added.indexOf(e) >= before);
    companion.inbox.answer(entry.request.id, answer);
    expect(textOf(await call)).toContain("- Name: Ada Lovelace");
  }, 30_000);
});
