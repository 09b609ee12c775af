// What a server's tools/list becomes: the tools within bounds (limits.ts), at most
// MAX_TOOLS_PER_SERVER, that an agent can be offered, under uniform names (`server_tool`).
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import { sanitize } from "../config/config";
import { jsonBoundsProblem, tryStringify } from "../../base/json-bounds";
import { MAX_TOOL_SCHEMA_BYTES, MAX_TOOLS_PER_SERVER } from "../../../shared/limits";
import type { ExecuteContext, McpTool } from "../types";
import type { TaskGeneration } from "../../../shared/tasks";

/** Why a listed tool is dropped, or undefined when it is kept (limits.ts). Never throws. */
export function toolProblem(tool: unknown): string | undefined {
  const bounds = jsonBoundsProblem(tool);
  if (bounds) return bounds;
  const text = tryStringify(tool);
  if (text === undefined) return "it cannot be written as JSON";
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_TOOL_SCHEMA_BYTES) return `its definition is ${bytes} bytes; at most ${MAX_TOOL_SCHEMA_BYTES} are kept`;
  const name = (tool as { name?: unknown }).name;
  if (typeof name !== "string" || name === "") return "it has no name";
  return undefined;
}

/** A server-chosen name as it goes into a log line: one line, bounded. */
function shown(name: unknown): string {
  const text = typeof name === "string" ? name : String(typeof name);
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

/**
 * Keeps the listed tools that are within bounds (limits.ts), at most MAX_TOOLS_PER_SERVER: a bad
 * tool is dropped with a log line, and the server stays connected with the others.
 */
function boundedTools(server: string, listed: Tool[], log: (line: string) => void): Tool[] {
  const kept: Tool[] = [];
  for (const tool of listed) {
    if (kept.length >= MAX_TOOLS_PER_SERVER) {
      log(`${server}: offers ${listed.length} tools; only the first ${MAX_TOOLS_PER_SERVER} within bounds are kept`);
      break;
    }
    const problem = toolProblem(tool);
    if (problem) log(`${server}: tool ${shown((tool as { name?: unknown })?.name)} was dropped: ${problem}`);
    else kept.push(tool);
  }
  return kept;
}

/** Whether the tool runs only as a task (`execution.taskSupport: "required"`). */
function needsTask(tool: Tool): boolean {
  return (tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport === "required";
}

/**
 * Whether an agent can be offered the tool. An MCP Apps tool whose `_meta.ui.visibility` leaves
 * out "model" is for its app alone (its `ui://` resources stay readable); a tool that needs a
 * task would fail every plain call, so it is offered only when the server offers tasks for
 * tools/call on a wire the companion speaks (`tasks`: 2025-11-25 `tasks.requests.tools.call`, or
 * the 2026-07-28 extension declared at initialize), else left out with a log line.
 */
function offeredToAgents(server: string, tool: Tool, tasks: TaskGeneration | undefined, log: (line: string) => void): boolean {
  const visibility = (tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui?.visibility;
  if (Array.isArray(visibility) && !visibility.includes("model")) return false;
  if (needsTask(tool) && !tasks) {
    log(`${server}: tool ${shown(tool.name)} is not offered: it runs only as a task (execution.taskSupport "required"), and the server offers no tasks for tools/call that the companion can follow`);
    return false;
  }
  return true;
}

export interface ListedTools {
  tools: McpTool[];
  /** Tools with an output schema: their calls keep the SDK's path, which checks the result against it. */
  typed: Set<string>;
  /**
   * Tools whose calls go on the task wire. 2025-11-25: those that need a task; one whose task
   * support is "optional" is called plainly (a task costs every call a tasks/get and a
   * tasks/result more and at least one poll's pause, while the server answers it inline just as
   * well). 2026-07-28: the server decides per request whether a call becomes a task, and only a
   * call that declares the extension may become one, so every call goes declaring it (a plain
   * answer costs nothing more) except those of a tool with an output schema: they keep the SDK's
   * path, which checks the result against it, and go on the task wire only when the server
   * refuses one for want of the extension (-32021, calls.ts).
   */
  taskTools: Set<string>;
}

/** A tools/list answer of the server named `server`, as the uniform tools; `execute` runs one by its own name. */
export function listedTools(
  server: string,
  listed: Tool[],
  log: (line: string) => void,
  execute: (tool: string, args: Record<string, unknown>, ctx?: ExecuteContext) => Promise<CallToolResult>,
  /** The generation of tasks the server offers for tools/call on a wire the connection speaks, if any. */
  tasks?: TaskGeneration,
): ListedTools {
  const prefix = sanitize(server);
  const kept = boundedTools(server, Array.isArray(listed) ? listed : [], log).filter((tool) => offeredToAgents(server, tool, tasks, log));
  const tools = kept.map((tool) => ({
    name: `${prefix}_${sanitize(tool.name)}`,
    description: tool.description ?? "",
    inputSchema: (tool.inputSchema ?? { type: "object" }) as Record<string, unknown>,
    source: "mcp" as const,
    server,
    tool: tool.name,
    title: tool.title,
    definition: tool as unknown as Record<string, unknown>,
    execute: (args: Record<string, unknown>, ctx?: ExecuteContext) => execute(tool.name, args, ctx),
  }));
  return {
    tools,
    typed: new Set(kept.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name)),
    taskTools: new Set(kept.filter((tool) => needsTask(tool) || (tasks === "2026-07-28" && tool.outputSchema === undefined)).map((tool) => tool.name)),
  };
}
