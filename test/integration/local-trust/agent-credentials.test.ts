// Per-agent credentials: the companion knows which agent calls from its credential, not from
// what the caller says about itself. An agent's questions on /v1/requests are its own: another
// agent's credential cannot see or withdraw them, whatever X-Agent-Name it sends, while the
// owner sees them from any connection without a capability. On /mcp a question names the
// credential's agent, whatever clientInfo.name says. A forged credential, or one from another
// token, is refused, and the page does not take an agent's credential at all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request as httpRequest } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { nextQuestion, rawRequest, startCompanion, type Companion } from "../gateway-harness";
import { agentCredential } from "../../../src/main/http/agent-credential";

let companion: Companion;
let endpoint: string;
let host: string;

beforeAll(async () => {
  companion = await startCompanion();
  endpoint = `${companion.listener.url}/v1/requests`;
  host = new URL(companion.listener.url).host;
});
afterAll(async () => {
  await companion?.close();
});

const as = (agent: string, extra: Record<string, string> = {}) => ({ host, authorization: `Bearer ${agentCredential(companion.token, agent)}`, ...extra });

function post(id: string, headers: Record<string, string>): Promise<unknown> {
  const body = JSON.stringify({ id, kind: "input", prompt: `Deploy ${id}?` });
  return new Promise((resolve, reject) => {
    const req = httpRequest(endpoint, { method: "POST", headers: { ...headers, "content-type": "application/json", "content-length": String(body.length) } }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString("utf8")));
      res.on("end", () => resolve(text.trim() ? JSON.parse(text) : { status: res.statusCode }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const ids = (body: string) => (JSON.parse(body) as { entries: Array<{ request: { id: string } }> }).entries.map((e) => e.request.id);

describe("per-agent credentials on /v1/requests", () => {
  it("name the asker, and keep an agent's question its own", async () => {
    const asked = nextQuestion(companion, (e) => e.request.id === "cursor-1");
    const answer = post("cursor-1", as("cursor"));
    const entry = await asked;
    // No X-Agent-Name: the person sees the credential's agent.
    expect(entry.source.agent).toBe("cursor");

    // Another agent's credential, even claiming to be cursor, does not see or withdraw it.
    const intruder = as("claude-code", { "x-agent-name": "cursor" });
    const list = await rawRequest(endpoint, { method: "GET", headers: intruder });
    expect(list.status).toBe(200);
    expect(ids(list.body)).not.toContain("cursor-1");
    expect((await rawRequest(`${endpoint}/cursor-1`, { method: "GET", headers: intruder })).status).toBe(404);
    expect((await rawRequest(`${endpoint}/cursor-1`, { method: "DELETE", headers: intruder })).status).toBe(404);
    expect(companion.inbox.get("cursor-1")).toBeDefined();

    // Its owner sees it from another connection, without the capability, and withdraws it.
    const mine = await rawRequest(endpoint, { method: "GET", headers: as("cursor") });
    expect(ids(mine.body)).toEqual(["cursor-1"]);
    expect((await rawRequest(`${endpoint}/cursor-1`, { method: "DELETE", headers: as("cursor") })).status).toBe(200);
    expect(await answer).toMatchObject({ id: "cursor-1", ok: false });
  });

  it("keep X-Agent-Name as the name shown, while ownership stays with the credential", async () => {
    const asked = nextQuestion(companion, (e) => e.request.id === "hook-1");
    const answer = post("hook-1", as("claude-code", { "x-agent-name": "Claude Code" }));
    expect((await asked).source.agent).toBe("Claude Code");
    expect(ids((await rawRequest(endpoint, { method: "GET", headers: as("cursor", { "x-agent-name": "Claude Code" }) })).body)).not.toContain("hook-1");
    companion.inbox.answer("hook-1", { ok: true });
    expect(await answer).toMatchObject({ id: "hook-1", ok: true });
  });

  it("refuse a forged credential, one from another token, and an agent's credential on the page", async () => {
    const forged = agentCredential(companion.token, "cursor").replace(".cursor.", ".codex.");
    expect((await rawRequest(endpoint, { method: "GET", headers: { host, authorization: `Bearer ${forged}` } })).status).toBe(401);
    const stale = agentCredential("a-token-from-before-a-rotation", "cursor");
    expect((await rawRequest(endpoint, { method: "GET", headers: { host, authorization: `Bearer ${stale}` } })).status).toBe(401);
    // The page answers for the person: the token (or its session cookie) only.
    expect((await rawRequest(`${companion.listener.url}/`, { method: "GET", headers: as("cursor") })).status).toBe(401);
  });
});

describe("per-agent credentials on /mcp", () => {
  it("a server's question names the credential's agent, whatever clientInfo.name says", async () => {
    const client = new Client({ name: "claude-code", version: "1.0.0" }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(companion.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${agentCredential(companion.token, "cursor")}` } } });
    await client.connect(transport);
    try {
      const asked = nextQuestion(companion, (e) => e.source.server === "everything");
      const call = client.callTool({ name: "everything_trigger-elicitation-request", arguments: {} });
      const entry = await asked;
      expect(entry.source.agent).toBe("cursor");
      companion.inbox.answer(entry.request.id, { ok: false, reason: "declined" });
      await call;
    } finally {
      await client.close();
    }
  }, 60_000);
});
