// The companion's PermissionRequest hook in Claude Code's settings.json and Codex's hooks.json:
// appended as one matcher group next to the hooks already there (never replacing one), found and
// removed by its command only, and the file given back byte for byte.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findOurHooks, hookCommand, HOOK_TIMEOUT_SECONDS, installHook, isOurHook, removeHookCandidates, type HookAgentId } from "../../../../src/main/client-configs/hook-edit";
import { parseJsonc } from "../../../../src/main/client-configs/json-edit";
import { undo } from "../../../../src/main/client-configs/writer";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/agents/home", import.meta.url));
const fixture = (path: string) => readFileSync(join(FIXTURES, path), "utf8");
const CLI = { command: "node", args: ["/opt/toolnexus/bin/toolnexus-companion"] };

const remove = (text: string, agent: HookAgentId, command: string) => undo(text, removeHookCandidates(text, agent), (c) => installHook(c, agent, command));

type Settings = { hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string; timeout?: number }> }>> } & Record<string, unknown>;

describe("permission hook install and removal", () => {
  const cases: Array<[HookAgentId, string]> = [
    ["claude-code", ".claude/settings.json"],
    ["codex", ".codex/hooks.json"],
  ];
  for (const [agent, path] of cases) {
    for (const crlf of [false, true]) {
      it(`${agent}: appended next to the existing hooks, idempotent, removed byte for byte${crlf ? " (CRLF)" : ""}`, () => {
        const original = crlf ? fixture(path).replace(/\n/g, "\r\n") : fixture(path);
        const command = hookCommand(CLI, agent, "linux");
        const installed = installHook(original, agent, command);
        const before = parseJsonc(original) as Settings;
        const after = parseJsonc(installed) as Settings;
        // Every event and group that was there is still there, unchanged and first.
        for (const [event, groups] of Object.entries(before.hooks)) expect(after.hooks[event].slice(0, groups.length)).toEqual(groups);
        const added = after.hooks.PermissionRequest.at(-1)!;
        expect(added).toEqual({ matcher: "*", hooks: [{ type: "command", command, timeout: HOOK_TIMEOUT_SECONDS }] });
        expect(after.hooks.PermissionRequest.length).toBe((before.hooks.PermissionRequest?.length ?? 0) + 1);
        expect(installHook(installed, agent, command)).toBe(installed);
        expect(findOurHooks(installed, agent)).toHaveLength(1);
        expect(remove(installed, agent, command)).toBe(original);
      });
    }
  }

  it("in a group the person shares with another command, only our handler is removed", () => {
    const command = hookCommand(CLI, "claude-code", "linux");
    const original = fixture(".claude/settings.json");
    const shared = original.replace('"command": "~/.claude/hooks/approve-reads.sh"\n          }', `"command": "~/.claude/hooks/approve-reads.sh"\n          },\n          { "type": "command", "command": "${command}" }`);
    const doc = parseJsonc(remove(shared, "claude-code", command)) as Settings;
    expect(doc.hooks.PermissionRequest).toEqual([{ matcher: "Read", hooks: [{ type: "command", command: "~/.claude/hooks/approve-reads.sh" }] }]);
    expect(remove(shared, "claude-code", command)).toBe(original);
  });

  it("an older install (another path) is pointed at this one in place, not added twice", () => {
    const old = installHook(fixture(".claude/settings.json"), "claude-code", "node /old/bin/toolnexus-companion hook claude-code");
    const updated = installHook(old, "claude-code", hookCommand(CLI, "claude-code", "linux"));
    expect(findOurHooks(updated, "claude-code").map(([, , c]) => c)).toEqual(["node /opt/toolnexus/bin/toolnexus-companion hook claude-code"]);
  });

  it("a settings file with no hooks, or none at all, gets a hooks object; removal leaves nothing of ours", () => {
    const command = hookCommand(CLI, "codex", "linux");
    const plain = '{\n  "model": "opus"\n}\n';
    const installed = installHook(plain, "codex", command);
    expect(parseJsonc(installed)).toEqual({ model: "opus", hooks: { PermissionRequest: [{ matcher: "*", hooks: [{ type: "command", command, timeout: 60 }] }] } });
    expect(remove(installed, "codex", command)).toBe(plain);
    const fresh = installHook("", "codex", command);
    expect(findOurHooks(fresh, "codex")).toHaveLength(1);
  });

  it("recognises our command for its agent only, however it is launched", () => {
    expect(isOurHook("toolnexus-companion hook claude-code", "claude-code")).toBe(true);
    expect(isOurHook("node '/Users/a b/tn/bin/toolnexus-companion' hook claude-code --timeout 50", "claude-code")).toBe(true);
    expect(isOurHook('node "C:\\tn\\bin\\toolnexus-companion" hook codex', "codex")).toBe(true);
    expect(isOurHook("toolnexus-companion hook codex", "claude-code")).toBe(false);
    expect(isOurHook("~/.claude/hooks/approve-reads.sh", "claude-code")).toBe(false);
    expect(isOurHook("echo toolnexus-companion-hook claude-code", "claude-code")).toBe(false);
  });

  it("quotes a launcher path with spaces for the agent's shell", () => {
    expect(hookCommand({ command: "node", args: ["/Users/a b/tn/bin/toolnexus-companion"] }, "claude-code", "darwin")).toBe("node '/Users/a b/tn/bin/toolnexus-companion' hook claude-code");
    expect(hookCommand({ command: "node", args: ["C:\\Program Files\\tn\\bin\\toolnexus-companion"] }, "codex", "win32")).toBe('node "C:\\Program Files\\tn\\bin\\toolnexus-companion" hook codex');
    expect(hookCommand({ command: "toolnexus-companion", args: [] }, "codex", "linux")).toBe("toolnexus-companion hook codex");
  });
});
