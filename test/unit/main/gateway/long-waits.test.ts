import { describe, expect, it } from "vitest";
import { longWaitDeadline, notYetResult, readLongWaits, waitToolDefinition, WAIT_TOOL } from "../../../../src/main/gateway/long-waits";

describe("gateway.longWaits in the config", () => {
  it("is off for everyone without the section", () => {
    const { setting, problems } = readLongWaits({ mcpServers: {} });
    expect(problems).toEqual([]);
    expect(longWaitDeadline(setting, "claude-code")).toBeUndefined();
  });

  it("turns agents on by name, with the default for the rest and the deadline given", () => {
    const { setting, problems } = readLongWaits({ gateway: { longWaits: { default: false, agents: { "claude-code": true, cursor: false }, deadlineMs: 30_000 } } });
    expect(problems).toEqual([]);
    expect(longWaitDeadline(setting, "claude-code")).toBe(30_000);
    expect(longWaitDeadline(setting, "cursor")).toBeUndefined();
    expect(longWaitDeadline(setting, "other")).toBeUndefined();
    const all = readLongWaits({ gateway: { longWaits: { default: true, agents: { cursor: false } } } }).setting;
    expect(longWaitDeadline(all, "other")).toBe(50_000);
    expect(longWaitDeadline(all, "cursor")).toBeUndefined();
    // An agent is named by its own entry, never an inherited property.
    expect(longWaitDeadline(setting, "toString")).toBeUndefined();
  });

  it("says what it does not understand and keeps the rest", () => {
    const { setting, problems } = readLongWaits({ gateway: { longWaits: { default: "yes", agents: { a: true, b: "on" }, deadlineMs: 120, wait: 1 } } });
    expect(setting).toEqual({ default: false, agents: { a: true }, deadlineMs: 50_000 });
    expect(problems).toEqual([
      'gateway.longWaits.default must be true or false, not "yes"',
      'gateway.longWaits.agents.b must be true or false, not "on"',
      "gateway.longWaits.deadlineMs must be a whole number of milliseconds from 1000 to 600000, not 120; 50000 is used",
      "gateway.longWaits.wait is not a setting (default, agents, deadlineMs)",
    ]);
    expect(readLongWaits({ gateway: { longWaits: true } }).problems[0]).toMatch(/must be an object like/);
    expect(readLongWaits({ gateway: { longWaits: { agents: [] } } }).problems).toEqual(["gateway.longWaits.agents must map agent names to true or false"]);
  });

  it("words the tool and the 'not yet' result for a model and a person", () => {
    const tool = waitToolDefinition(50_000);
    expect(tool.name).toBe(WAIT_TOOL);
    expect(tool.description).toMatch(/waits up to 50 s/);
    const plain = notYetResult({ id: "tnw_abc", tool: "srv_ask", waitingOnPerson: true, waitedMs: 50_000, structured: false });
    expect(plain.isError).toBe(false);
    expect(plain.content[0]).toEqual({
      type: "text",
      text:
        "The person has not answered yet: srv_ask is waiting for them to answer a question in Toolnexus Companion (50 s so far). The call is still running and nothing is lost. " +
        'To get its result, call the tool toolnexus_wait with {"call": "tnw_abc"}: it waits again and returns the real result once it is there. Do not call srv_ask again for this: that would run it a second time.',
    });
    // A tool with an outputSchema needs structuredContent on success: "not yet" is an error result there.
    expect(notYetResult({ id: "tnw_abc", tool: "srv_ask", waitingOnPerson: false, waitedMs: 61_000, structured: true }).isError).toBe(true);
  });
});
