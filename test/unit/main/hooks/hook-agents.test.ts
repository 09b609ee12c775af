// The agents' hook contracts: what is read from stdin and the exact bytes written back.
import { describe, it, expect } from "vitest";
import { HOOK_AGENTS, hookAgent, answerToVerdict } from "../../../../src/main/hooks";
import { parseHookArgs, DEFAULT_HOOK_TIMEOUT_SECONDS } from "../../../../src/main/cli/hook";

describe("agent output schemas", () => {
  for (const id of ["claude-code", "codex"]) {
    it(`${id}: allow and deny in hookSpecificOutput.decision, nothing else`, () => {
      const agent = hookAgent(id)!;
      expect(agent.allow()).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}');
      expect(agent.deny('Use "npm ci" instead')).toBe(
        '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Use \\"npm ci\\" instead"}}}',
      );
    });
  }
  it("knows exactly Claude Code and Codex", () => {
    expect(HOOK_AGENTS.map((a) => [a.id, a.label])).toEqual([["claude-code", "Claude Code"], ["codex", "Codex"]]);
  });
});

describe("reading hook input", () => {
  const agent = hookAgent("claude-code")!;
  it("tolerates unknown fields and a missing tool_input", () => {
    expect(agent.read({ hook_event_name: "PermissionRequest", tool_name: "Bash", future_field: [1], cwd: "/p" })).toEqual({
      ok: true,
      call: { tool: "Bash", toolInput: {}, cwd: "/p", sessionId: undefined, permissionMode: undefined },
    });
  });
  it("refuses other events, so an answer is never written in the wrong schema", () => {
    expect(agent.read({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: {} })).toMatchObject({ ok: false, reason: expect.stringMatching(/PermissionRequest only/) });
    expect(agent.read({ tool_name: "Bash" }).ok).toBe(false);
  });
  it("refuses what is not an object or has no tool", () => {
    for (const input of [null, [], "x", 3, { hook_event_name: "PermissionRequest" }, { hook_event_name: "PermissionRequest", tool_name: "" }]) {
      expect(agent.read(input).ok).toBe(false);
    }
  });
  it("ignores overlong or non-string cwd and session", () => {
    const read = agent.read({ hook_event_name: "PermissionRequest", tool_name: "Bash", cwd: "x".repeat(5000), session_id: 7 });
    expect(read).toMatchObject({ ok: true, call: { cwd: undefined, sessionId: undefined } });
  });
});

describe("answerToVerdict (the Answer mapping)", () => {
  it("allows only on ok: true for this very question", () => {
    expect(answerToVerdict({ id: "a", ok: true }, "a")).toEqual({ kind: "allow" });
    expect(answerToVerdict({ id: "b", ok: true }, "a").kind).toBe("none");
    expect(answerToVerdict({ id: "a", ok: "true" }, "a").kind).toBe("none");
    expect(answerToVerdict({ ok: true }, "a").kind).toBe("none");
    expect(answerToVerdict(null, "a").kind).toBe("none");
    expect(answerToVerdict([{ id: "a", ok: true }], "a").kind).toBe("none");
  });
  it("denies on declined, with the person's message or a plain default", () => {
    expect(answerToVerdict({ id: "a", ok: false, reason: "declined", data: { message: "  not on main  " } }, "a")).toEqual({ kind: "deny", message: "not on main" });
    expect(answerToVerdict({ id: "a", ok: false, reason: "declined" }, "a")).toEqual({ kind: "deny", message: "The person denied this in Toolnexus Companion." });
    expect(answerToVerdict({ id: "a", ok: false, reason: "declined", data: { message: 5 } }, "a")).toMatchObject({ kind: "deny" });
    const long = answerToVerdict({ id: "a", ok: false, reason: "declined", data: { message: "m".repeat(5000) } }, "a");
    expect(long.kind === "deny" && long.message.length).toBe(2000);
  });
  it("gives no verdict for cancel, expiry, the terminal choice or no reason", () => {
    for (const reason of ["cancelled", "expired", undefined, "DECLINED"]) {
      expect(answerToVerdict({ id: "a", ok: false, reason }, "a").kind).toBe("none");
    }
  });
});

describe("hook arguments", () => {
  it("defaults to a deadline under the agents' hook timeout", () => {
    expect(parseHookArgs(["claude-code"], {})).toMatchObject({ timeoutMs: DEFAULT_HOOK_TIMEOUT_SECONDS * 1000 });
    expect(DEFAULT_HOOK_TIMEOUT_SECONDS).toBeLessThan(60);
  });
  it("takes --timeout over TOOLNEXUS_HOOK_TIMEOUT", () => {
    expect(parseHookArgs(["codex"], { TOOLNEXUS_HOOK_TIMEOUT: "20" })).toMatchObject({ timeoutMs: 20_000 });
    expect(parseHookArgs(["codex", "--timeout", "2.5"], { TOOLNEXUS_HOOK_TIMEOUT: "20" })).toMatchObject({ timeoutMs: 2500 });
    expect(parseHookArgs(["codex", "--timeout=7"], {})).toMatchObject({ timeoutMs: 7000 });
  });
  it("refuses unknown agents, arguments and senseless timeouts", () => {
    for (const args of [[], ["cursor"], ["codex", "--timeout"], ["codex", "--timeout", "0"], ["codex", "--timeout", "-1"], ["codex", "--timeout", "abc"], ["codex", "--timeout", "99999"], ["codex", "--yes"]]) {
      expect(parseHookArgs(args, {})).toHaveProperty("error");
    }
    expect(parseHookArgs(["codex"], { TOOLNEXUS_HOOK_TIMEOUT: "soon" })).toHaveProperty("error");
  });
});
