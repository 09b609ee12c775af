import { describe, expect, it } from "vitest";
import type { FileReport } from "../../../../src/main/client-configs";
import { applyPlan, planImport } from "../../../../src/main/client-configs/plan";
import type { CompanionEntry } from "../../../../src/main/client-configs/types";
import { parseConfigText } from "../../../../src/main/base/config-text";

function report(client: FileReport["client"], servers: Record<string, CompanionEntry>): FileReport {
  const file = `/h/${client}.json`;
  return { client, label: client, file, scope: "user", servers: Object.entries(servers).map(([name, entry]) => ({ name, entry, from: { client, file, scope: "user" } })), skipped: [] };
}

describe("planImport", () => {
  const gh = { command: "npx", args: ["-y", "gh"] };
  it("imports the same server found in two clients once, with both sources", () => {
    const plan = planImport({}, [report("claude-desktop", { github: gh }), report("cursor", { gh: { ...gh } })]);
    expect(plan.servers).toMatchObject([{ name: "github", action: "add", from: [{ client: "claude-desktop" }, { client: "cursor" }] }]);
  });

  it("keeps different servers with one name apart: github and github@cursor", () => {
    const plan = planImport({}, [report("claude-desktop", { github: gh }), report("cursor", { github: { command: "docker", args: ["run", "gh"] } }), report("windsurf", { github: { url: "https://gh.example/mcp" } })]);
    expect(plan.servers.map((s) => [s.name, s.clientName])).toEqual([["github", undefined], ["github@cursor", "github"], ["github@windsurf", "github"]]);
  });

  it("a server the companion already has (any name) is unchanged; a clash with an existing name is renamed", () => {
    const existing = { mcpServers: { mine: { command: "npx", args: ["-y", "gh"] }, fetch: { command: "other" } } };
    const plan = planImport(existing, [report("cursor", { github: gh, fetch: { command: "uvx", args: ["fetch"] } })]);
    expect(plan.servers.map((s) => [s.name, s.action])).toEqual([["mine", "unchanged"], ["fetch@cursor", "add"]]);
  });
});

describe("applyPlan", () => {
  it("adds under the file's own server map, keeping comments, unknown keys and existing servers; a second import changes nothing", () => {
    const text = '{\n  // my config\n  "theme": "x",\n  "mcp": { "servers": { "keep": { "type": "local", "command": ["k"] } } },\n}\n';
    const plan = planImport(parseConfigText(text), [report("zed", { new: { command: "n", args: [] } })]);
    expect(plan.wrapper).toEqual(["mcp", "servers"]);
    const written = applyPlan(text, plan);
    expect(written).toContain("// my config");
    const value = parseConfigText(written) as { theme: string; mcp: { servers: Record<string, unknown> } };
    expect(value.theme).toBe("x");
    expect(Object.keys(value.mcp.servers)).toEqual(["keep", "new"]);
    expect(value.mcp.servers.new).toEqual({ command: "n", args: [], importedFrom: [{ client: "zed", file: "/h/zed.json", scope: "user" }] });
    const again = planImport(parseConfigText(written), [report("zed", { new: { command: "n", args: [] } })]);
    expect(again.servers.map((s) => s.action)).toEqual(["unchanged"]);
    expect(applyPlan(written, again)).toBe(written);
  });

  it("starts a new file with mcpServers", () => {
    const plan = planImport({}, [report("codex", { a: { url: "https://a.example/mcp", type: "http" } })]);
    expect(JSON.parse(applyPlan("", plan))).toEqual({ mcpServers: { a: { url: "https://a.example/mcp", type: "http", importedFrom: [{ client: "codex", file: "/h/codex.json", scope: "user" }] } } });
  });
});
