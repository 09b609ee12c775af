// What a 2026-07-28 server says of a task is bounded before anything reads it, checked against
// the extension's schemas, and cut to what the companion keeps (modern-snapshot.ts); a -32021's
// data is read into names (modern-wire.ts).
import { describe, expect, it } from "vitest";
import { createdTask, inputRequired, TaskAnswerError, taskSnapshot } from "../../../../../src/main/mcp/tasks/modern-snapshot";
import { missingCapabilities, requiresTasksExtension } from "../../../../../src/main/mcp/tasks/modern-wire";
import { MAX_JSON_DEPTH, MAX_TASK_ID_LENGTH, MAX_TASK_INPUT_REQUESTS, MAX_TASK_POLL_MS, MAX_TASK_STATUS_MESSAGE, MIN_TASK_POLL_MS } from "../../../../../src/shared/limits";

const base = { taskId: "t1", createdAt: "2026-12-01T10:00:00Z", lastUpdatedAt: "2026-12-01T10:00:01Z", ttlMs: 60_000 };
const form = { method: "elicitation/create", params: { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: {} } } };

function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(TaskAnswerError);
    return (error as Error).message;
  }
  throw new Error("it was taken");
}

describe("a task a 2026-07-28 server sends", () => {
  it("is read with its status, message, poll interval and time to live", () => {
    expect(createdTask({ ...base, status: "working", statusMessage: "on it", pollIntervalMs: 500, resultType: "task" }, "the task")).toEqual({
      taskId: "t1",
      status: "working",
      statusMessage: "on it",
      pollIntervalMs: 500,
      ttlMs: 60_000,
    });
    expect(taskSnapshot({ ...base, ttlMs: null, status: "input_required", inputRequests: { name: form }, resultType: "complete" }, "t1", "tasks/get")).toEqual({
      taskId: "t1",
      status: "input_required",
      ttlMs: null,
      inputRequests: { name: form },
    });
  });

  it("hands on a completed task's result as a plain CallToolResult, bare or as the wire writes one", () => {
    const content = [{ type: "text", text: "done" }];
    for (const result of [{ content }, { content, resultType: "complete" }]) {
      expect(taskSnapshot({ ...base, status: "completed", result, resultType: "complete" }, "t1", "tasks/get").result).toEqual({ content });
    }
    expect(refusal(() => taskSnapshot({ ...base, status: "completed", result: { content, resultType: "task" }, resultType: "complete" }, "t1", "tasks/get"))).toMatch(/not a final result/);
  });

  it("keeps the poll interval within bounds and cuts a long status message", () => {
    const fast = createdTask({ ...base, status: "working", pollIntervalMs: 0, resultType: "task" }, "the task");
    expect(fast.pollIntervalMs).toBe(MIN_TASK_POLL_MS);
    const slow = createdTask({ ...base, status: "working", pollIntervalMs: 10 ** 12, statusMessage: "x".repeat(10 * MAX_TASK_STATUS_MESSAGE), resultType: "task" }, "the task");
    expect(slow.pollIntervalMs).toBe(MAX_TASK_POLL_MS);
    expect(slow.statusMessage).toHaveLength(MAX_TASK_STATUS_MESSAGE);
  });

  it("is refused when it is nested too deep, asks too much at once, or has an id too long to echo", () => {
    let deep: Record<string, unknown> = { content: [] };
    for (let i = 0; i < MAX_JSON_DEPTH + 5; i++) deep = { nested: deep };
    expect(refusal(() => taskSnapshot({ ...base, status: "completed", result: deep, resultType: "complete" }, "t1", "tasks/get"))).toMatch(/nested more than/);
    const many = Object.fromEntries(Array.from({ length: MAX_TASK_INPUT_REQUESTS + 1 }, (_, i) => [`q${i}`, form]));
    expect(refusal(() => taskSnapshot({ ...base, status: "input_required", inputRequests: many, resultType: "complete" }, "t1", "tasks/get"))).toMatch(/questions at once/);
    const long = "i".repeat(MAX_TASK_ID_LENGTH + 1);
    expect(refusal(() => createdTask({ ...base, taskId: long, status: "working", resultType: "task" }, "the task"))).toMatch(/task id is longer/);
  });

  it("is refused when it is not the extension's shape, or is about another task", () => {
    expect(refusal(() => taskSnapshot({ ...base, status: "completed", resultType: "complete" }, "t1", "tasks/get"))).toMatch(/not what the 2026-07-28 tasks extension defines \(result/);
    expect(refusal(() => taskSnapshot({ ...base, status: "done", resultType: "complete" }, "t1", "tasks/get"))).toMatch(/tasks extension defines/);
    expect(refusal(() => taskSnapshot({ ...base, status: "working", resultType: "complete" }, "t2", "tasks/get"))).toMatch(/about another task/);
    expect(refusal(() => createdTask({ ...base, taskId: "", status: "working", resultType: "task" }, "the task"))).toMatch(/task id is empty/);
    expect(refusal(() => inputRequired({ resultType: "input_required", inputRequests: { q: { method: "tools/call", params: {} } } }, "the answer"))).toMatch(/tasks extension defines/);
  });

  it("carries a failed task's error with its message cut", () => {
    const failed = taskSnapshot({ ...base, status: "failed", error: { code: -32603, message: "m".repeat(5000), data: { why: 1 } }, resultType: "complete" }, "t1", "tasks/get");
    expect(failed.error).toEqual({ code: -32603, message: expect.any(String), data: { why: 1 } });
    expect(failed.error!.message.length).toBe(MAX_TASK_STATUS_MESSAGE);
  });
});

describe("a -32021's missing capabilities", () => {
  const tasksOnly = { code: -32021, data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } } };

  it("are named, extensions by id and nested capabilities by their path", () => {
    expect(missingCapabilities({ requiredCapabilities: { elicitation: { url: {} }, sampling: {}, extensions: { "x.y/z": {} } } })).toEqual(["elicitation.url", "sampling", "extension x.y/z"]);
    expect(missingCapabilities({ requiredCapabilities: "everything" })).toEqual([]);
    expect(missingCapabilities(undefined)).toEqual([]);
  });

  it("allow a retry with the extension only when the extension alone is missing", () => {
    expect(requiresTasksExtension(tasksOnly)).toBe(true);
    expect(requiresTasksExtension({ ...tasksOnly, code: -32602 })).toBe(false);
    expect(requiresTasksExtension({ code: -32021, data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} }, sampling: {} } } })).toBe(false);
  });
});
