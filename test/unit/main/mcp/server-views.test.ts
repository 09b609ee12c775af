// One server's event recomputes that server's view only: the others are served from what was
// kept, and the whole list is never walked (or scrubbed) per event.
import { describe, expect, it } from "vitest";
import { ServerViews, toolSummary } from "../../../../src/main/mcp/server-views";
import { MAX_TOOL_DESCRIPTION_IN_LIST } from "../../../../src/shared/limits";
import type { McpTool } from "../../../../src/main/mcp/types";
import type { ServerStatus } from "../../../../src/shared/types";

function fakeSource(count: number) {
  const statuses = new Map<string, ServerStatus>();
  for (let i = 0; i < count; i++) statuses.set(`s${i}`, { name: `s${i}`, state: "failed", error: `e${i}`, toolCount: 0 });
  let statusReads = 0;
  const source = {
    tools: [] as McpTool[],
    status: {},
    servers: () => [...statuses.values()],
    on: () => () => {},
    close: async () => {},
    serverNames: () => [...statuses.keys()],
    serverStatus: (name: string) => {
      statusReads++;
      const status = statuses.get(name);
      return status ? { ...status } : undefined;
    },
    toolsOf: () => [],
    sharingTools: () => [],
  };
  return { source, statuses, reads: () => statusReads };
}

describe("ServerViews", () => {
  it("after one server's event only that server is read and scrubbed again", () => {
    const { source, statuses, reads } = fakeSource(2000);
    let scrubs = 0;
    let generation = 0;
    const views = new ServerViews({ source: source as never, configError: () => undefined, scrub: (v) => (scrubs++, v), scrubGeneration: () => generation });
    expect(views.list()).toHaveLength(2000);
    expect(reads()).toBe(2000);
    statuses.set("s7", { name: "s7", state: "restarting", toolCount: 0 });
    views.invalidate("s7");
    const before = { reads: reads(), scrubs };
    const list = views.list();
    expect(list[7]).toMatchObject({ name: "s7", state: "restarting" });
    expect(reads() - before.reads).toBe(1);
    expect(scrubs - before.scrubs).toBe(1);
    // A secret registered since: every kept view is scrubbed again.
    generation++;
    views.list();
    expect(reads() - before.reads).toBe(2001);
  });

  it("lists tools as summaries: no schema, the description cut and marked", () => {
    const tool = { name: "s_t", server: "s", tool: "t", description: "d".repeat(MAX_TOOL_DESCRIPTION_IN_LIST + 5), inputSchema: { type: "object" } } as unknown as McpTool;
    const summary = toolSummary(tool);
    expect(summary).not.toHaveProperty("inputSchema");
    expect(summary.description).toHaveLength(MAX_TOOL_DESCRIPTION_IN_LIST);
    expect(summary.descriptionCut).toBe(true);
  });
});
