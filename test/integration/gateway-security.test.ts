// Every refusal of the gateway: each request below carries a real session id and a tools/call
// that would make server-everything ask a question, so "nothing reached a server or the Inbox"
// is checked by the Inbox staying empty.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { connectAgent, rawRequest, startCompanion, type Companion } from "./gateway-harness";

let companion: Companion;
let agent: Client;
let sessionId: string;
let host: string;

const trigger = JSON.stringify({
  jsonrpc: "2.0",
  id: 99,
  method: "tools/call",
  params: { name: "everything_trigger-elicitation-request", arguments: {} },
});

function headers(extra: Record<string, string> = {}): Record<string, string> {
  return {
    host,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-session-id": sessionId,
    "mcp-protocol-version": "2025-11-25",
    authorization: `Bearer ${companion.token}`,
    ...extra,
  };
}

beforeAll(async () => {
  companion = await startCompanion();
  agent = await connectAgent(companion, "probe");
  sessionId = companion.gateway.sessions()[0].id;
  host = new URL(companion.listener.url).host;
});
afterAll(async () => {
  await agent?.close();
  await companion?.close();
});

async function expectNothingReached(): Promise<void> {
  // Long enough for a question from server-everything to arrive had the call gone through.
  await new Promise((r) => setTimeout(r, 300));
  expect(companion.added).toEqual([]);
}

function jsonRpcError(body: string): { code: number; message: string } {
  const parsed = JSON.parse(body) as { jsonrpc: string; error: { code: number; message: string } };
  expect(parsed.jsonrpc).toBe("2.0");
  return parsed.error;
}

describe("gateway refusals", () => {
  it("refuses a request without a token (401)", async () => {
    const h = headers();
    delete h.authorization;
    const res = await rawRequest(companion.mcpUrl, { headers: h, body: trigger });
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(jsonRpcError(res.body).message).toMatch(/token/i);
    await expectNothingReached();
  });

  it("refuses a wrong token (401)", async () => {
    const res = await rawRequest(companion.mcpUrl, { headers: headers({ authorization: "Bearer not-the-token" }), body: trigger });
    expect(res.status).toBe(401);
    expect(jsonRpcError(res.body).message).toMatch(/wrong/);
    await expectNothingReached();
  });

  it("refuses a foreign Origin (403)", async () => {
    const res = await rawRequest(companion.mcpUrl, { headers: headers({ origin: "https://evil.example" }), body: trigger });
    expect(res.status).toBe(403);
    expect(jsonRpcError(res.body).message).toContain("evil.example");
    await expectNothingReached();
  });

  it("refuses a non-loopback Host (403), token or not", async () => {
    const res = await rawRequest(companion.mcpUrl, { headers: headers({ host: "attacker.example" }), body: trigger });
    expect(res.status).toBe(403);
    expect(jsonRpcError(res.body).message).toContain("attacker.example");
    await expectNothingReached();
  });

  it("refuses a 5 MiB body (413), declared or streamed", async () => {
    const big = JSON.stringify({ ...JSON.parse(trigger), params: { name: "everything_echo", arguments: { message: "x".repeat(5 * 1024 * 1024) } } });
    const declared = await rawRequest(companion.mcpUrl, { headers: headers(), body: big });
    expect(declared.status).toBe(413);
    expect(jsonRpcError(declared.body).message).toMatch(/4 MiB/);
    const streamed = await rawRequest(companion.mcpUrl, { headers: headers(), body: big, chunked: true });
    expect(streamed.status).toBe(413);
    expect(jsonRpcError(streamed.body).message).toMatch(/4 MiB/);
    await expectNothingReached();
  });

  it("answers malformed JSON with a JSON-RPC parse error (400)", async () => {
    const res = await rawRequest(companion.mcpUrl, { headers: headers(), body: trigger.slice(0, -5) });
    expect(res.status).toBe(400);
    expect(jsonRpcError(res.body).code).toBe(-32700);
    await expectNothingReached();
  });

  it("answers an empty batch with HTTP 400 and JSON-RPC Invalid Request (-32600), not 202", async () => {
    const res = await rawRequest(companion.mcpUrl, { headers: headers(), body: "[]" });
    expect(res.status).toBe(400);
    expect(jsonRpcError(res.body)).toMatchObject({ code: -32600, message: expect.stringMatching(/Invalid Request/) });
  });

  it("refuses a message nested 10k levels deep with a JSON-RPC error naming the limit", async () => {
    const deep = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"everything_trigger-elicitation-request","arguments":{"x":${"[".repeat(10_000)}${"]".repeat(10_000)}}}}`;
    const res = await rawRequest(companion.mcpUrl, { headers: headers(), body: deep });
    expect(res.status).toBe(400);
    expect(jsonRpcError(res.body)).toMatchObject({ code: -32600, message: expect.stringMatching(/nested more than 64 levels/) });
    // Also before a session exists (an initialize carrying it).
    const init = `[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":${"{\"a\":".repeat(5000)}1${"}".repeat(5000)}}}]`;
    const h = headers();
    delete h["mcp-session-id"];
    const refused = await rawRequest(companion.mcpUrl, { headers: h, body: init });
    expect(refused.status).toBe(400);
    await expectNothingReached();
  });

  it("refuses an unknown session (404) and a call without a session (400)", async () => {
    const unknown = await rawRequest(companion.mcpUrl, { headers: headers({ "mcp-session-id": "not-a-session" }), body: trigger });
    expect(unknown.status).toBe(404);
    expect(jsonRpcError(unknown.body).code).toBe(-32001);
    const h = headers();
    delete h["mcp-session-id"];
    const none = await rawRequest(companion.mcpUrl, { headers: h, body: trigger });
    expect(none.status).toBe(400);
    await expectNothingReached();
  });

  it("accepts a loopback Origin and localhost Host with the token", async () => {
    const res = await rawRequest(companion.mcpUrl, {
      headers: headers({ origin: `http://localhost:${companion.listener.port}`, host: `localhost:${companion.listener.port}` }),
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "everything_echo", arguments: { message: "ok" } } }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain("Echo: ok");
  });

  it("guards /v1/requests the same way", async () => {
    const request = JSON.stringify({ id: "sec-1", kind: "input", prompt: "?" });
    const noToken = await rawRequest(`${companion.listener.url}/v1/requests`, { headers: { host, "content-type": "application/json" }, body: request });
    expect(noToken.status).toBe(401);
    const evil = await rawRequest(`${companion.listener.url}/v1/requests`, {
      headers: { host, origin: "https://evil.example", authorization: `Bearer ${companion.token}` },
      body: request,
    });
    expect(evil.status).toBe(403);
    const rebound = await rawRequest(`${companion.listener.url}/v1/requests`, {
      headers: { host: "attacker.example", authorization: `Bearer ${companion.token}` },
      body: request,
    });
    expect(rebound.status).toBe(403);
    await expectNothingReached();
  });
});
