// Which POSTs /mcp hands to its 2026-07-28 side: the SDK's own classification, behind a cheap look
// that lets 2025-11-25 traffic (initialize, a session's calls) through without it.
import { Readable } from "node:stream";
import type { IncomingMessage } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { createModernEndpoint } from "../../../../src/main/gateway/modern-endpoint";

const endpoint = createModernEndpoint({
  serverFor: () => {
    throw new Error("no request is served here");
  },
  log: () => {},
  perCredential: 1,
  total: 1,
});

afterAll(() => endpoint.close());

function post(headers: Record<string, string>): IncomingMessage {
  return Object.assign(Readable.from([]), {
    method: "POST",
    url: "/mcp",
    headers: { host: "127.0.0.1:7315", "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
  }) as unknown as IncomingMessage;
}

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "agent", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

describe("the 2026-07-28 side of /mcp", () => {
  it("leaves 2025-11-25 traffic to the sessions", async () => {
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "a", version: "1" } } };
    expect(await endpoint.claims(post({}), initialize)).toBe(false);
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "x", arguments: {} } };
    expect(await endpoint.claims(post({ "mcp-session-id": "s", "mcp-protocol-version": "2025-11-25" }), call)).toBe(false);
    expect(await endpoint.claims(post({ "mcp-session-id": "s" }), [call, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } }])).toBe(false);
  });

  it("takes server/discover and any request with the per-request envelope", async () => {
    const headers = { "mcp-protocol-version": "2026-07-28" };
    expect(await endpoint.claims(post({ ...headers, "mcp-method": "server/discover" }), { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: ENVELOPE } })).toBe(true);
    expect(await endpoint.claims(post({ ...headers, "mcp-method": "tools/list" }), { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: ENVELOPE } })).toBe(true);
  });

  it("takes what the 2026-07-28 side must refuse itself: a modern header without the envelope, an envelope without the header", async () => {
    expect(await endpoint.claims(post({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" }), { jsonrpc: "2.0", id: 3, method: "tools/list" })).toBe(true);
    expect(await endpoint.claims(post({}), { jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: ENVELOPE } })).toBe(true);
  });
});
