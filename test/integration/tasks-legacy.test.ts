// 2025-11-25 tasks against the real server-everything over stdio, through loadMcp with a person
// answering in a real Inbox: a tool that runs only as a task (simulate-research-query), with and
// without the question it queues on the task; the client's own tasks (the server's
// elicitation/create and sampling/createMessage with a `task` param); cancelling a task, by the
// person and by the caller going away; and a companion restart mid-task.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcp, type LiveSource } from "../../src/main/mcp/source";
import { memoryLedger } from "../../src/main/mcp/tasks/ledger";
import type { SourceEvent } from "../../src/main/mcp/types";
import type { TaskRecord } from "../../src/shared/tasks";
import { everythingStdioCommand } from "../fixtures";
import { scriptedPerson, type Policy, type ScriptedPerson } from "../helpers/person";
import { until } from "../helpers/poll";
import { outputOf } from "../helpers/tool-output";

const config = { mcpServers: { everything: everythingStdioCommand() } };

let source: LiveSource;
let person: ScriptedPerson;
let policy: Policy = () => undefined;
const ledger = memoryLedger();
const events: TaskRecord[] = [];

beforeAll(async () => {
  person = scriptedPerson((entry) => policy(entry));
  const started = startMcp(config, { waitFor: person.waitFor, tasks: ledger });
  source = started.source;
  source.on((event: SourceEvent) => {
    if (event.type === "task") events.push(event.record);
  });
  await started.ready;
}, 20_000);

afterAll(async () => {
  await source?.close();
});

function tool(name: string) {
  const found = source.tools.find((t) => t.tool === name);
  if (!found) throw new Error(`no tool ${name}; have ${source.tools.map((t) => t.tool).join(", ")}`);
  return found;
}

/** The newest record of a task of `toolName`, once there is one. */
function recordOf(toolName: string, since: number): Promise<TaskRecord> {
  return until(() => ledger.all().find((r) => r.tool === toolName && r.createdAt >= since), 10_000, `a task of ${toolName}`);
}

describe("a tool that runs only as a task (simulate-research-query)", () => {
  it("is offered, runs as a task and comes back with the server's report; the ledger follows it to completed", async () => {
    expect(tool("simulate-research-query").definition).toMatchObject({ execution: { taskSupport: "required" } });
    const since = Date.now();
    const result = await outputOf(tool("simulate-research-query").execute({ topic: "tides" }, { agent: "research-bot" }));
    expect(result.isError).toBe(false);
    expect(result.output).toContain("# Research Report: tides");
    const record = ledger.all().find((r) => r.createdAt >= since)!;
    expect(record).toMatchObject({ server: "everything", tool: "simulate-research-query", agent: "research-bot", generation: "2025-11-25", state: "completed" });
    expect(record.id).toMatch(/^tsk-/);
    expect(record.outcome).toContain("Research Report: tides");
    expect(record.endedAt).toBeGreaterThanOrEqual(record.createdAt);
    // Each change was told: the stages as status messages, then the end.
    const told = events.filter((e) => e.id === record.id);
    expect(told.map((e) => e.statusMessage)).toEqual(expect.arrayContaining(["Analyzing content...", "Generating report..."]));
    expect(told.at(-1)).toMatchObject({ state: "completed" });
  }, 20_000);

  it("asks the person the question it queued on the task, naming the agent and tool, and the answer reaches the report", async () => {
    policy = (entry) => (entry.request.prompt.includes('"python"') ? { ok: true, data: { interpretation: "comedy" } } : undefined);
    const asked = person.seen.length;
    const result = await outputOf(tool("simulate-research-query").execute({ topic: "python", ambiguous: true }, { agent: "research-bot" }));
    const question = person.seen.slice(asked).find((e) => e.request.prompt.includes('"python"'));
    expect(question?.source).toEqual({ server: "everything", agent: "research-bot", tool: "simulate-research-query" });
    expect(result.output).toContain("# Research Report: python (comedy)");
    policy = () => undefined;
  }, 20_000);
});

describe("the client's own tasks (the server asks with a `task` param)", () => {
  it("trigger-elicitation-request-async: the question reaches the Inbox, the server polls the client's task and gets the answer", async () => {
    policy = (entry) => (entry.request.prompt.includes("async task demo") ? { ok: true, data: { name: "Ada Lovelace", favoriteColor: "Purple" } } : undefined);
    const result = await outputOf(tool("trigger-elicitation-request-async").execute({}));
    expect(result.output).toContain("[COMPLETED] User provided the requested information!");
    expect(result.output).toContain("- Name: Ada Lovelace");
    expect(result.output).toContain("- Favorite Color: Purple");
    policy = () => undefined;
  }, 20_000);

  it("trigger-sampling-request-async: the calling agent answers the sampling task", async () => {
    const seen: Record<string, unknown>[] = [];
    const sampling = async (params: Record<string, unknown>) => {
      seen.push(params);
      return { role: "assistant", content: { type: "text", text: "the tide comes in twice a day" }, model: "agent-model" };
    };
    const result = await outputOf(tool("trigger-sampling-request-async").execute({ prompt: "tides?" }, { agent: "sampling-bot", sampling }));
    expect(result.output).toContain("[COMPLETED] Async sampling completed!");
    expect(result.output).toContain("the tide comes in twice a day");
    // The agent got the question without the task augmentation.
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toHaveProperty("task");
  }, 20_000);

  it("trigger-sampling-request-async without an agent: the client task fails with the usual refusal", async () => {
    const result = await outputOf(tool("trigger-sampling-request-async").execute({ prompt: "tides?" }));
    expect(result.output).toContain("[FAILED]");
    expect(result.output).toContain("sampling/createMessage");
  }, 20_000);
});
