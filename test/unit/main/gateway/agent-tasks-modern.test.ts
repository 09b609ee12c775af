// The gateway's tasks as the 2026-07-28 tasks extension shows them, checked with the extension
// library's own wire schemas (@modelcontextprotocol/ext-tasks core/v2): the CreateTaskResult,
// tasks/get in each status (inputRequests while the agent is asked, the result inline, the
// error), and tasks/update's responses answering by key.
import { afterEach, describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { CreateTaskResultV2Schema, DetailedTaskV2Schema, InputResponsesV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import { AgentTasks, type AgentTask, type TaskControl } from "../../../../src/main/gateway/agent-tasks";
import { applyInputResponses, modernCreateResult, modernDetailedTask } from "../../../../src/main/gateway/agent-tasks-modern";
import { until } from "../../../helpers/poll";

const stores: AgentTasks[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function started(run: (control: TaskControl) => Promise<CallToolResult>): AgentTask {
  const tasks = new AgentTasks();
  stores.push(tasks);
  const task = tasks.start("s1", run);
  if (typeof task === "string") throw new Error(task);
  return task;
}

const ELICIT = { mode: "form", message: "Which topic?", requestedSchema: { type: "object", properties: { topic: { type: "string" } } } };

describe("the 2026-07-28 view of a gateway task", () => {
  it("creates as a flat task result and reads working, with integer ttlMs and pollIntervalMs", () => {
    const task = started(() => new Promise(() => {}));
    const created = modernCreateResult(task, 1000);
    expect(CreateTaskResultV2Schema.safeParse(created).success).toBe(true);
    expect(created).toMatchObject({ resultType: "task", taskId: task.id, status: "working", ttlMs: task.ttlMs, pollIntervalMs: 1000 });
    expect(created).not.toHaveProperty("task");
    expect(DetailedTaskV2Schema.safeParse(modernDetailedTask(task, 1000)).success).toBe(true);
  });

  it("shows a request waiting on the agent as inputRequests, and tasks/update's response answers it by key", async () => {
    let control: TaskControl | undefined;
    let answer: Promise<Record<string, unknown>> | undefined;
    const task = started((c) => {
      control = c;
      answer = c.ask({ method: "elicitation/create", params: ELICIT }, c.signal);
      return answer.then((a) => ({ content: [{ type: "text", text: JSON.stringify(a) }] }));
    });
    await until(() => task.status === "input_required");
    const detailed = modernDetailedTask(task, 1000);
    const parsed = DetailedTaskV2Schema.safeParse(detailed);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(detailed.inputRequests).toEqual({ "input-1": { method: "elicitation/create", params: ELICIT } });

    const responses = { "input-1": { action: "accept", content: { topic: "tides" } }, "input-9": { action: "decline" } };
    expect(InputResponsesV2Schema.safeParse(responses).success).toBe(true);
    expect(applyInputResponses(task, responses)).toEqual(["input-9"]);
    await expect(answer).resolves.toEqual({ action: "accept", content: { topic: "tides" } });
    await until(() => task.status === "completed");
    const done = modernDetailedTask(task, 1000);
    expect(DetailedTaskV2Schema.safeParse(done).success).toBe(true);
    expect(done.result).toEqual({ content: [{ type: "text", text: '{"action":"accept","content":{"topic":"tides"}}' }], resultType: "complete" });
    expect(control?.signal.aborted).toBe(false);
  });

  it("reads failed with the JSON-RPC error, and cancelled bare", async () => {
    const failing = started(async () => {
      throw new Error("the server went away");
    });
    await until(() => failing.status === "failed");
    const failed = modernDetailedTask(failing, 1000);
    expect(DetailedTaskV2Schema.safeParse(failed).success).toBe(true);
    expect(failed.error).toEqual({ code: -32603, message: "the server went away" });

    const tasks = new AgentTasks();
    stores.push(tasks);
    const running = tasks.start("s1", (c) => new Promise((_, reject) => c.signal.addEventListener("abort", () => reject(c.signal.reason))));
    if (typeof running === "string") throw new Error(running);
    tasks.cancel(running);
    const cancelled = modernDetailedTask(running, 1000);
    expect(DetailedTaskV2Schema.safeParse(cancelled).success).toBe(true);
    expect(cancelled).not.toHaveProperty("result");
  });
});
