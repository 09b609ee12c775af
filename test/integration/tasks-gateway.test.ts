// Tasks through the gateway: an SDK agent over streamable HTTP calls server-everything's tools
// through /mcp. trigger-sampling-request-async makes the server ask the companion for sampling as
// the companion's own task; the calling agent answers it (it advertised sampling), and the server
// polls the task to its result. simulate-research-query, which runs only as a task, is offered and
// answers the agent's plain tools/call with the server's report.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startCompanion, textOf, type Companion } from "./gateway-harness";

let companion: Companion;
let agent: Client;
const asked: Record<string, unknown>[] = [];

beforeAll(async () => {
  companion = await startCompanion();
  agent = new Client({ name: "sampling-agent", version: "1.0.0" }, { capabilities: { sampling: {} } });
  agent.setRequestHandler("sampling/createMessage", async (request) => {
    asked.push(request.params as Record<string, unknown>);
    return { role: "assistant", content: { type: "text", text: "sampled by the agent" }, model: "agent-model" };
  });
  await agent.connect(new StreamableHTTPClientTransport(new URL(companion.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${companion.token}` } } }));
}, 30_000);

afterAll(async () => {
  await agent?.close();
  await companion?.close();
});

describe("tasks through the gateway", () => {
  it("the agent answers the sampling the server asks as the companion's task", async () => {
    const result = await agent.callTool({ name: "everything_trigger-sampling-request-async", arguments: { prompt: "a haiku" } });
    expect(textOf(result)).toContain("[COMPLETED] Async sampling completed!");
    expect(textOf(result)).toContain("sampled by the agent");
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0])).toContain("a haiku");
  }, 20_000);

  it("a tool that runs only as a task answers the agent's plain call with the server's result", async () => {
    const result = await agent.callTool({ name: "everything_simulate-research-query", arguments: { topic: "volcanoes" } });
    expect(textOf(result)).toContain("# Research Report: volcanoes");
  }, 20_000);
});
