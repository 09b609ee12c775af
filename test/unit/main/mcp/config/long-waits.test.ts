import { describe, expect, it } from "vitest";
import { longWaitDeadline, readLongWaits, setLongWait } from "../../../../../src/main/mcp/config/long-waits";

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

  it("turns one agent on or off in the file, keeping its comments and other keys", () => {
    const text = '{\n  // mine\n  "mcpServers": { "a": { "command": "x" } },\n  "gateway": { "elicitation": { "default": "person" } }\n}\n';
    const on = setLongWait(text, "claude-code", true);
    expect(on).toContain("// mine");
    expect(on).toContain('"elicitation": { "default": "person" }');
    expect(longWaitDeadline(readLongWaits(JSON.parse(on.replace("// mine", ""))).setting, "claude-code")).toBe(50_000);
    const off = setLongWait(on, "claude-code", false);
    expect(longWaitDeadline(readLongWaits(JSON.parse(off.replace("// mine", ""))).setting, "claude-code")).toBeUndefined();
    expect(JSON.parse(setLongWait("", "cursor", true))).toEqual({ gateway: { longWaits: { agents: { cursor: true } } } });
    expect(() => setLongWait("[1]", "cursor", true)).toThrow(/not an object/);
    expect(() => setLongWait("{ nope", "cursor", true)).toThrow();
  });
});
