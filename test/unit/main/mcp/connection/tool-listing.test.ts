// Which listed tools are offered and which calls go on the task wire, by the tasks a server offers:
// none, 2025-11-25 (only a tool that needs a task), 2026-07-28 (every call but a typed tool's).
import { describe, expect, it } from "vitest";
import type { Tool } from "@modelcontextprotocol/client";
import { listedTools } from "../../../../../src/main/mcp/connection/tool-listing";

const object = { type: "object" as const };
const listed: Tool[] = [
  { name: "plain", inputSchema: object },
  { name: "typed", inputSchema: object, outputSchema: { type: "object", properties: { n: { type: "number" } } } },
  { name: "optional", inputSchema: object, execution: { taskSupport: "optional" } },
  { name: "required", inputSchema: object, execution: { taskSupport: "required" } },
  { name: "typed_required", inputSchema: object, outputSchema: object, execution: { taskSupport: "required" } },
];
const execute = async () => ({ content: [] });

function listing(tasks?: "2025-11-25" | "2026-07-28") {
  const logs: string[] = [];
  const { tools, typed, taskTools } = listedTools("s", listed, (line) => logs.push(line), execute, tasks);
  return { offered: tools.map((t) => t.tool), typed: [...typed], taskTools: [...taskTools].sort(), logs };
}

describe("listedTools", () => {
  it("without tasks: a tool that needs one is left out with a log line, and nothing goes as a task", () => {
    const { offered, taskTools, logs } = listing();
    expect(offered).toEqual(["plain", "typed", "optional"]);
    expect(taskTools).toEqual([]);
    expect(logs).toHaveLength(2);
    expect(logs[0]).toContain('tool "required" is not offered');
  });

  it("2025-11-25: every tool is offered; only those that need a task go as one", () => {
    const { offered, taskTools, logs } = listing("2025-11-25");
    expect(offered).toEqual(listed.map((t) => t.name));
    expect(taskTools).toEqual(["required", "typed_required"]);
    expect(logs).toEqual([]);
  });

  it("2026-07-28 with the extension: every call declares it except a typed tool's (its result is checked on the SDK path), unless it needs a task", () => {
    const { offered, typed, taskTools } = listing("2026-07-28");
    expect(offered).toEqual(listed.map((t) => t.name));
    expect(typed).toEqual(["typed", "typed_required"]);
    expect(taskTools).toEqual(["optional", "plain", "required", "typed_required"]);
  });
});
