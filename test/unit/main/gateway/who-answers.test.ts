import { describe, expect, it } from "vitest";
import { createCore } from "../../../../src/main/app/core";
import { browserPlatform } from "../../../../src/main/app/serve";
import { readWhoAnswers, whoAnswersFor } from "../../../../src/main/gateway/who-answers";
import { parseConfig } from "../../../../src/main/mcp/config/parse";

describe("who answers a server's question during an agent's call", () => {
  it("defaults to the person, with or without a gateway section", () => {
    expect(readWhoAnswers({}).setting).toEqual({ default: "person", agents: {} });
    expect(readWhoAnswers({ gateway: {} }).setting).toEqual({ default: "person", agents: {} });
    expect(whoAnswersFor(readWhoAnswers(undefined).setting, "cursor")).toBe("person");
  });

  it("reads the default and per-agent choices; a name like toString is just a name", () => {
    const { setting, problems } = readWhoAnswers({ gateway: { elicitation: { default: "agent", agents: { cursor: "person", toString: "agent" } } } });
    expect(problems).toEqual([]);
    expect(whoAnswersFor(setting, "cursor")).toBe("person");
    expect(whoAnswersFor(setting, "toString")).toBe("agent");
    expect(whoAnswersFor(setting, "claude-code")).toBe("agent");
    expect(whoAnswersFor(readWhoAnswers({ gateway: { elicitation: { agents: {} } } }).setting, "constructor")).toBe("person");
  });

  it("names what it does not understand and falls back to the person", () => {
    const { setting, problems } = readWhoAnswers({ gateway: { elicitation: { default: "robot", agents: { a: "yes", b: "agent" } } } });
    expect(setting).toEqual({ default: "person", agents: { b: "agent" } });
    expect(problems).toEqual([
      'gateway.elicitation.default must be "person" or "agent", not "robot"',
      'gateway.elicitation.agents.a must be "person" or "agent", not "yes"',
    ]);
    expect(readWhoAnswers({ gateway: { elicitation: [] } }).problems).toHaveLength(1);
  });

  it("the gateway section is not taken for a server", () => {
    const parsed = parseConfig({ gateway: { elicitation: { default: "agent" } }, s: { command: "x" } });
    expect(parsed.servers.map((s) => s.name)).toEqual(["s"]);
    expect(parsed.skipped).toEqual([]);
  });

  it("core answers per agent from its config, and logs a bad value", async () => {
    const lines: string[] = [];
    const core = await createCore({
      config: { mcpServers: {}, gateway: { elicitation: { agents: { "conformance-test-client": "agent", x: 3 } } } },
      platform: browserPlatform,
      log: (line) => lines.push(line),
    });
    try {
      expect(core.whoAnswers("conformance-test-client")).toBe("agent");
      expect(core.whoAnswers("cursor")).toBe("person");
      expect(lines.some((l) => l.includes("gateway.elicitation.agents.x must be"))).toBe(true);
    } finally {
      await core.close();
    }
  });
});
