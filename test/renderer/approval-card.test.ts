// The approval card for agents' own permission prompts, on questions built by the real hook code
// from the documented hook inputs (test/fixtures/hooks).
import { describe, it, expect, vi } from "vitest";
import { render, screen, fireEvent, within } from "@testing-library/svelte";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ApprovalCard from "../../src/renderer/components/ApprovalCard.svelte";
import { approvalRequest, hookAgent } from "../../src/main/hooks";
import { ok } from "./fake-api";
import type { AnswerInput, Envelope } from "../../src/shared/contract";
import type { Answer, PendingEntry } from "../../src/shared/types";

const FIXTURES = join(__dirname, "..", "fixtures", "hooks");

function hookEntry(agentId: string, fixture: string, expiresAt?: Date): PendingEntry {
  const agent = hookAgent(agentId)!;
  const read = agent.read(JSON.parse(readFileSync(join(FIXTURES, fixture), "utf8")));
  if (!read.ok) throw new Error(read.reason);
  const request = approvalRequest(agent.label, read.call, { id: `q-${fixture}`, expiresAt });
  return { request, source: { agent: agent.label }, receivedAt: Date.now() };
}

function setup(e: PendingEntry, reply: (a: AnswerInput) => Envelope<Answer> = (a) => ok(a)) {
  const answer = vi.fn(async (a: AnswerInput) => reply(a));
  render(ApprovalCard, { props: { entry: e, answer } });
  const card = screen.getByRole("region", { name: /asks to/ });
  return { answer, card, id: e.request.id };
}

describe("ApprovalCard", () => {
  it("shows who asks, where, and the exact command in a code block", () => {
    const { card } = setup(hookEntry("claude-code", "claude-code-bash.json", new Date(Date.now() + 50_000)));
    expect(screen.getByRole("heading").textContent).toBe("Claude Code asks to run a command");
    expect(card.querySelector(".project")?.textContent).toMatch(/in shop \/home\/ada\/src\/shop/);
    const command = within(card).getByLabelText("Command");
    expect(command.tagName).toBe("PRE");
    expect(command.textContent).toBe("rm -rf build && npm run build");
    expect(card.textContent).toContain("Claude Code says: Clean and rebuild the project");
    expect(card.textContent).toMatch(/waits (49|50) s more/);
    // The card has focus, not Allow: a stray Enter allows nothing.
    expect(document.activeElement).toBe(card);
    for (const name of ["Allow", "Deny", "Answer in the terminal"]) expect(screen.getByRole("button", { name })).toBeTruthy();
    expect(card.querySelectorAll("a")).toHaveLength(0);
  });

  it("shows an edit's file and size of change", () => {
    const { card } = setup(hookEntry("claude-code", "claude-code-edit.json"));
    expect(screen.getByRole("heading").textContent).toBe("Claude Code asks to edit a file");
    const files = within(card).getByRole("list", { name: "Files" });
    expect(files.textContent).toContain("/home/ada/src/shop/src/cart.ts");
    expect(files.textContent).toContain("+2 −1 lines");
  });

  it("shows each file of a Codex patch, and a whole-file write as such", () => {
    setup(hookEntry("codex", "codex-apply-patch.json"));
    expect(screen.getByRole("heading").textContent).toBe("Codex asks to change 2 files");
    const items = within(screen.getByRole("list", { name: "Files" })).getAllByRole("listitem").map((li) => li.textContent?.replace(/\s+/g, " ").trim());
    expect(items).toEqual(["src/cart.ts +2 −1 lines", "src/cart.test.ts +2 −0 lines"]);
  });

  it("names the MCP server and tool", () => {
    const { card } = setup(hookEntry("claude-code", "claude-code-mcp.json"));
    expect(screen.getByRole("heading").textContent).toBe("Claude Code asks to call an MCP tool");
    const terms = [...card.querySelectorAll("dt")].map((d) => `${d.textContent}: ${d.nextElementSibling?.textContent}`);
    expect(terms).toEqual(["MCP server: github", "Tool: create_issue"]);
  });

  it("shows any other tool with its arguments open", () => {
    const { card } = setup(hookEntry("claude-code", "claude-code-webfetch.json"));
    expect(screen.getByRole("heading").textContent).toBe("Claude Code asks to use WebFetch");
    expect((card.querySelector("details") as HTMLDetailsElement).open).toBe(true);
    expect(card.querySelector("details pre")?.textContent).toContain('"url": "https://example.com/changelog"');
  });

  it("answers Allow, Deny with and without a message, the terminal choice and Escape", async () => {
    const { answer, id, card } = setup(hookEntry("codex", "codex-bash.json"));
    await fireEvent.click(screen.getByRole("button", { name: "Allow" }));
    expect(answer).toHaveBeenLastCalledWith({ id, ok: true });
    await fireEvent.click(screen.getByRole("button", { name: "Deny" }));
    expect(answer).toHaveBeenLastCalledWith({ id, ok: false, reason: "declined" });
    await fireEvent.input(screen.getByLabelText(/Message to Codex if you deny/), { target: { value: "  Use the fixture folder instead.  " } });
    await fireEvent.click(screen.getByRole("button", { name: "Deny" }));
    expect(answer).toHaveBeenLastCalledWith({ id, ok: false, reason: "declined", data: { message: "Use the fixture folder instead." } });
    await fireEvent.click(screen.getByRole("button", { name: "Answer in the terminal" }));
    expect(answer).toHaveBeenLastCalledWith({ id, ok: false, reason: "cancelled" });
    await fireEvent.keyDown(card, { key: "Escape" });
    expect(answer).toHaveBeenCalledTimes(5);
    expect(answer).toHaveBeenLastCalledWith({ id, ok: false, reason: "cancelled" });
  });

  it("will not allow a command it could not show whole", () => {
    const agent = hookAgent("claude-code")!;
    const read = agent.read({ hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: `echo ${"x".repeat(20_000)}` } });
    if (!read.ok) throw new Error(read.reason);
    setup({ request: approvalRequest(agent.label, read.call), source: { agent: agent.label }, receivedAt: Date.now() });
    expect(screen.getByRole("alert").textContent).toMatch(/too long to show whole/);
    expect((screen.getByRole("button", { name: "Allow" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Deny" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows main's refusal and stays answerable", async () => {
    setup(hookEntry("claude-code", "claude-code-bash.json"), () => ({ ok: false, error: { code: "unknown-id", message: "No pending question has id" } }));
    await fireEvent.click(screen.getByRole("button", { name: "Allow" }));
    expect(screen.getByRole("alert").textContent).toContain("No pending question has id");
    expect((screen.getByRole("button", { name: "Allow" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("treats a hand-posted approval with odd data as text, never as markup or links", () => {
    setup({
      request: { id: "odd", kind: "approval", prompt: "?", data: { agent: "<b>x</b>", action: { kind: "shell", command: 42 }, tool: "<img src=x onerror=alert(1)>" } },
      source: { agent: "script" },
      receivedAt: Date.now(),
    });
    expect(screen.getByRole("heading").textContent).toBe("script asks to use <img src=x onerror=alert(1)>");
    expect(document.querySelector("img")).toBeNull();
  });
});
