// Each documented hook input becomes one "approval" question a person can judge at a glance.
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { approvalRequest, hookAgent } from "../../../../src/main/hooks";
import { checkRequest } from "../../../../src/main/gateway/validate-request";

const FIXTURES = join(__dirname, "..", "..", "..", "fixtures", "hooks");
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), "utf8"));

function question(agentId: string, name: string) {
  const agent = hookAgent(agentId)!;
  const read = agent.read(fixture(name));
  if (!read.ok) throw new Error(read.reason);
  return approvalRequest(agent.label, read.call, { id: "q-1", expiresAt: new Date("2030-01-01T00:00:00Z") });
}

describe("approvalRequest", () => {
  it("shows a shell command whole, with who asks and where", () => {
    const q = question("claude-code", "claude-code-bash.json");
    expect(q).toMatchObject({
      id: "q-1",
      kind: "approval",
      prompt: "Allow Claude Code to run: rm -rf build && npm run build?",
      expiresAt: "2030-01-01T00:00:00.000Z",
      data: {
        agent: "Claude Code",
        project: "/home/ada/src/shop",
        tool: "Bash",
        summary: "rm -rf build && npm run build",
        action: { kind: "shell", command: "rm -rf build && npm run build", description: "Clean and rebuild the project" },
        input: { command: "rm -rf build && npm run build", description: "Clean and rebuild the project" },
        session: "abc123",
        permissionMode: "default",
      },
    });
    // What the agent posts passes the companion's own Request check (validate-request.ts).
    expect(checkRequest(JSON.parse(JSON.stringify(q))).ok).toBe(true);
  });

  it("counts an edit's changed lines, not the lines it merely repeats", () => {
    const q = question("claude-code", "claude-code-edit.json");
    expect(q.data.action).toEqual({ kind: "edit", files: [{ path: "/home/ada/src/shop/src/cart.ts", op: "update", added: 2, removed: 1 }] });
    expect(q.data.summary).toBe("/home/ada/src/shop/src/cart.ts (+2 −1 lines)");
    expect(q.prompt).toBe("Allow Claude Code to edit /home/ada/src/shop/src/cart.ts (+2 −1 lines)?");
  });

  it("says a Write replaces a whole file, whose losses it cannot know", () => {
    const q = question("claude-code", "claude-code-write.json");
    expect(q.data.action).toEqual({ kind: "edit", files: [{ path: "/home/ada/src/shop/.env.example", op: "write", added: 2 }] });
    expect(q.prompt).toBe("Allow Claude Code to write /home/ada/src/shop/.env.example (+2 lines)?");
  });

  it("sums a MultiEdit's edits", () => {
    const q = question("claude-code", "claude-code-multiedit.json");
    expect(q.data.action).toEqual({ kind: "edit", files: [{ path: "/home/ada/src/shop/README.md", op: "update", added: 1, removed: 3 }] });
  });

  it("names the MCP server and tool", () => {
    const q = question("claude-code", "claude-code-mcp.json");
    expect(q.data.action).toEqual({ kind: "mcp", server: "github", tool: "create_issue" });
    expect(q.prompt).toBe("Allow Claude Code to call create_issue on MCP server github?");
  });

  it("shows any other tool by name with its arguments", () => {
    const q = question("claude-code", "claude-code-webfetch.json");
    expect(q.data.action).toEqual({ kind: "other" });
    expect(q.data.summary).toBe('WebFetch {"url":"https://example.com/changelog","prompt":"Summarise the breaking changes"}');
    expect(q.prompt).toBe("Allow Claude Code to use WebFetch?");
  });

  it("reads Codex's shell, network, apply_patch and MCP inputs", () => {
    const bash = question("codex", "codex-bash.json");
    expect(bash.prompt).toBe("Allow Codex to run: rm -f /tmp/example?");
    expect(bash.data).toMatchObject({ agent: "Codex", project: "/home/ada/src/shop", tool: "Bash" });
    expect(question("codex", "codex-network.json").data.action).toMatchObject({ kind: "shell", description: "network-access registry.npmjs.org" });
    const patch = question("codex", "codex-apply-patch.json");
    expect(patch.data.action).toEqual({
      kind: "edit",
      files: [
        { path: "src/cart.ts", op: "update", added: 2, removed: 1 },
        { path: "src/cart.test.ts", op: "add", added: 2, removed: 0 },
      ],
    });
    expect(patch.data.summary).toBe("2 files (+4 −1 lines)");
    expect(question("codex", "codex-mcp.json").data.action).toEqual({ kind: "mcp", server: "rmcp", tool: "echo" });
  });

  it("marks a command too long to show whole, and leaves out arguments too large to carry", () => {
    const agent = hookAgent("claude-code")!;
    const command = `echo ${"x".repeat(70_000)}`;
    const read = agent.read({ hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command } });
    if (!read.ok) throw new Error(read.reason);
    const q = approvalRequest(agent.label, read.call);
    expect(q.data.action).toMatchObject({ kind: "shell", truncated: true });
    expect((q.data.action as { command: string }).command.length).toBe(16_000);
    expect(q.data.input).toBeUndefined();
    expect(q.data.inputOmitted).toBe(true);
    expect(q.prompt.length).toBeLessThanOrEqual(300);
    expect(q.id).toMatch(/^hook-[0-9a-f-]{36}$/);
  });

  it("quotes a command given as an argv array", () => {
    const agent = hookAgent("codex")!;
    const read = agent.read({ hook_event_name: "PermissionRequest", tool_name: "exec_command", tool_input: { command: ["git", "commit", "-m", "it's done"] } });
    if (!read.ok) throw new Error(read.reason);
    expect(approvalRequest(agent.label, read.call).data.action).toEqual({ kind: "shell", command: "git commit -m 'it'\\''s done'" });
  });
});
