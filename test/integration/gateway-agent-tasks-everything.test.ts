// Tasks end to end with server-everything's simulate-research-query (execution.taskSupport
// "required"; about four seconds in four stages): an SDK v1 agent that declared tasks runs it
// through the gateway's own task and gets the report, the server's task id never reaching it; an
// agent that did not declare tasks calls it plainly and gets the same report (the companion
// follows the server's task for it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startCompanion, type Companion } from "./gateway-harness";
import { textOfV1 } from "./v1-agent";

const TOOL = "everything_simulate-research-query";
let companion: Companion;
const clients: Client[] = [];

beforeAll(async () => {
  companion = await startCompanion();
}, 30_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await companion?.close();
});

async function agent(name: string, capabilities: Record<string, unknown>): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, { capabilities });
  const transport = new StreamableHTTPClientTransport(new URL(companion.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${companion.token}` } } });
  await client.connect(transport);
  clients.push(client);
  return client;
}

describe("simulate-research-query through the gateway", () => {
  it("an agent that declared tasks runs it as the gateway's task and gets the report", async () => {
    const client = await agent("task-agent", { tasks: { list: {}, cancel: {} } });
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === TOOL)?.execution).toEqual({ taskSupport: "required" });
    const messages: Array<{ type: string; task?: { taskId: string; statusMessage?: string }; result?: unknown }> = [];
    for await (const message of client.experimental.tasks.callToolStream({ name: TOOL, arguments: { topic: "tides" } })) messages.push(message as never);
    const taskIds = new Set(messages.filter((m) => m.task).map((m) => m.task!.taskId));
    expect([...taskIds]).toEqual([expect.stringMatching(/^gwt-/)]);
    const last = messages.at(-1)!;
    expect(last.type).toBe("result");
    expect(textOfV1(last.result)).toContain("# Research Report: tides");
  }, 30_000);

  it("an agent that did not declare tasks calls it plainly and gets the same report", async () => {
    const client = await agent("plain-agent", {});
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === TOOL)?.execution?.taskSupport).toBeUndefined();
    const result = await client.callTool({ name: TOOL, arguments: { topic: "waves" } });
    expect(result.isError).toBeFalsy();
    expect(textOfV1(result)).toContain("# Research Report: waves");
  }, 30_000);
});
