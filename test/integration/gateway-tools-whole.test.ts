// Through /mcp an agent gets each tool, prompt and resource exactly as its server listed it, only
// renamed: compared field by field with the server's own lists read off its stdio wire, for the
// real server-everything and for rich-tools.mjs (MCP Apps _meta.ui, annotations, icons,
// outputSchema, an app-only tool, a task-only tool). A call's structuredContent passes unchanged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sanitize } from "../../src/main/mcp/config/config";
import { everythingStdioCommand, fixtureCommand } from "../fixtures";
import { startCompanion, type Companion } from "./gateway-harness";
import { gatewaySession, stdioResults } from "./raw-wire";

type Item = Record<string, unknown>;

let companion: Companion;
let agent: Awaited<ReturnType<typeof gatewaySession>>;
const logs: string[] = [];
const rich = fixtureCommand("rich-tools");
const everything = everythingStdioCommand();

beforeAll(async () => {
  companion = await startCompanion({ config: { mcpServers: { rich, everything } }, log: (l) => logs.push(l) });
  // It declares tasks: an agent that does not is listed a task-only tool without its taskSupport
  // (gateway-agent-tasks-everything.test.ts).
  agent = await gatewaySession(companion.mcpUrl, companion.token, { tasks: { list: {}, cancel: {} } });
}, 30_000);
afterAll(async () => {
  await companion?.close();
});

async function gatewayTools(): Promise<Item[]> {
  return (await agent.request("tools/list")).tools as Item[];
}

// Whether the server offers tasks for tools/call: then a tool that runs only as a task is offered too.
describe.each([
  ["rich", rich, false],
  ["everything", everything, true],
])("tools of %s", (server, command, offersTasks) => {
  it("are listed whole, each field as the server gave it, under the gateway's name", async () => {
    const [own] = await stdioResults(command.command, command.args, [{ method: "tools/list" }]);
    const listed = await gatewayTools();
    const offered = (own.tools as Item[]).filter((tool) => {
      const visibility = (tool._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility;
      const taskOnly = (tool.execution as { taskSupport?: string } | undefined)?.taskSupport === "required";
      return !(visibility && !visibility.includes("model")) && (offersTasks || !taskOnly);
    });
    expect(offered.length).toBeGreaterThan(0);
    for (const tool of offered) {
      const name = `${sanitize(server)}_${sanitize(String(tool.name))}`;
      expect(listed.find((t) => t.name === name), name).toEqual({ ...tool, name });
    }
    const ours = listed.filter((t) => String(t.name).startsWith(`${sanitize(server)}_`));
    expect(ours).toHaveLength(offered.length);
  });
});

describe("MCP Apps and tasks", () => {
  it("keeps _meta.ui, hides the app-only tool from agents, and leaves its ui:// resource readable", async () => {
    const listed = await gatewayTools();
    const chart = listed.find((t) => t.name === "rich_chart");
    expect(chart?._meta).toEqual({ ui: { resourceUri: "ui://chart/view.html", visibility: ["model", "app"] }, "com.example/owner": "charts-team" });
    expect(listed.find((t) => t.name === "rich_chart_refresh")).toBeUndefined();
    const read = await agent.request("resources/read", { uri: "ui://chart/view.html" });
    expect((read.contents as Item[])[0]).toMatchObject({ uri: "ui://chart/view.html", mimeType: "text/html;profile=mcp-app" });
  });

  it("leaves out a tool that runs only as a task when its server offers no tasks, with one log line saying why, and offers it when it does", async () => {
    const listed = await gatewayTools();
    expect(listed.find((t) => t.name === "rich_research")).toBeUndefined();
    expect(listed.find((t) => t.name === "everything_simulate-research-query")).toMatchObject({ execution: { taskSupport: "required" } });
    const lines = logs.filter((l) => l.includes('"research"') && l.includes("task"));
    expect(lines).toHaveLength(1);
  });
});

describe("prompts, resources and results", () => {
  it("lists prompts and resources whole (title, icons, annotations, _meta)", async () => {
    const [prompts, resources] = await stdioResults(rich.command, rich.args, [{ method: "prompts/list" }, { method: "resources/list" }]);
    const gwPrompts = (await agent.request("prompts/list")).prompts as Item[];
    for (const prompt of prompts.prompts as Item[]) {
      const name = `rich_${String(prompt.name)}`;
      expect(gwPrompts.find((p) => p.name === name)).toEqual({ ...prompt, name });
    }
    const gwResources = (await agent.request("resources/list")).resources as Item[];
    for (const resource of resources.resources as Item[]) expect(gwResources.find((r) => r.uri === resource.uri)).toEqual(resource);
  });

  it("passes a call's structuredContent and _meta through unchanged", async () => {
    const call = { name: "chart", arguments: { values: [1, 2, 3.5] } };
    const [own] = await stdioResults(rich.command, rich.args, [{ method: "tools/call", params: call }]);
    const through = await agent.request("tools/call", { ...call, name: "rich_chart" });
    expect(through).toEqual(own);
    expect(through.structuredContent).toEqual({ sum: 6.5, count: 3 });
  });
});
