// The gateway's short path: a plain tools/call is answered with a JSON body; one that runs long
// turns into an event stream; progress tokens, batches and other methods take the SDK's path.
// Real companion (server-everything over stdio), raw HTTP so the wire format is visible.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest, startCompanion, type Companion } from "./gateway-harness";

let companion: Companion;
let session: string;
const ACCEPT = "application/json, text/event-stream";
const VERSION = "2025-06-18";

function post(body: unknown, headers: Record<string, string> = {}) {
  return rawRequest(companion.mcpUrl, {
    headers: {
      authorization: `Bearer ${companion.token}`,
      "content-type": "application/json",
      accept: ACCEPT,
      "mcp-session-id": session,
      "mcp-protocol-version": VERSION,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** The JSON-RPC messages of an SSE body. */
function events(body: string): Array<Record<string, unknown>> {
  return body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

beforeAll(async () => {
  companion = await startCompanion();
  const init = await rawRequest(companion.mcpUrl, {
    headers: { authorization: `Bearer ${companion.token}`, "content-type": "application/json", accept: ACCEPT },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "raw-agent", version: "1" } },
    }),
  });
  expect(init.status).toBe(200);
  session = String(init.headers["mcp-session-id"]);
  const initialized = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  expect(initialized.status).toBe(202);
}, 30_000);

afterAll(async () => {
  await companion?.close();
});

describe("gateway: the short path for plain calls", () => {
  it("answers a plain tools/call with a JSON body", async () => {
    const res = await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "everything_echo", arguments: { message: "hi" } } });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.headers["mcp-session-id"]).toBe(session);
    const message = JSON.parse(res.body);
    expect(message).toMatchObject({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "Echo: hi" }] } });
  });

  it("answers an unknown tool with a JSON-RPC invalid-params error", async () => {
    const res = await post({ jsonrpc: "2.0", id: "x", method: "tools/call", params: { name: "nobody_nothing" } });
    expect(res.status).toBe(200);
    const message = JSON.parse(res.body);
    expect(message.id).toBe("x");
    expect(message.error.code).toBe(-32602);
    expect(message.error.message).toContain("nobody_nothing");
  });

  it("switches a call that runs long to an event stream carrying the result", async () => {
    const res = await post({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "everything_trigger-long-running-operation", arguments: { duration: 1, steps: 2 } },
    });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/event-stream");
    const [message] = events(res.body);
    expect(message).toMatchObject({ jsonrpc: "2.0", id: 2 });
    expect((message.result as { isError?: boolean }).isError ?? false).toBe(false);
  });

  it("sends a call with a progress token down the SDK's event stream, progress first", async () => {
    const res = await post({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "everything_trigger-long-running-operation", arguments: { duration: 1, steps: 2 }, _meta: { progressToken: "p" } },
    });
    expect(res.headers["content-type"]).toBe("text/event-stream");
    const messages = events(res.body);
    expect(messages.some((m) => m.method === "notifications/progress")).toBe(true);
    expect(messages.at(-1)).toMatchObject({ id: 3 });
  });

  it("leaves other methods and unknown protocol versions to the SDK", async () => {
    const list = await post({ jsonrpc: "2.0", id: 4, method: "tools/list" });
    expect(list.headers["content-type"]).toBe("text/event-stream");
    const bad = await post(
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "everything_echo", arguments: { message: "hi" } } },
      { "mcp-protocol-version": "1999-01-01" },
    );
    expect(bad.status).toBe(400);
  });
});
