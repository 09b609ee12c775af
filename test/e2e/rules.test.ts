// "Always answer this way" end to end: the real core (with a rules file), server-everything over
// stdio, the real listener serving the built renderer, and Debian's Chromium. The person ticks the
// box on the form and accepts; the same question asked again is answered by the rule without the
// form, with a quiet note offering Undo; after Undo the form comes back. Screenshots at 1280×800
// and 420×640, light and dark, each checked for horizontal overflow and by axe.
import { describe, it, expect } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { axeViolations, DESKTOP, EVERYTHING, POPUP, repoRoot, shootAll as shootViews, startApp, useBrowser } from "./harness";
import type { ToolRunResult } from "../../src/shared/types";
import { approvalRequest, hookAgent } from "../../src/main/hooks";

const UI_TIMEOUT = 15_000;
const TOOL = "everything_trigger-elicitation-request";

let dir: string;

const e2e = useBrowser({
  uiTimeout: UI_TIMEOUT,
  app: () => {
    dir = mkdtempSync(join(tmpdir(), "tnc-rules-e2e-"));
    return startApp({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }, { core: { rulesPath: join(dir, "rules.json") } });
  },
  closeContexts: "after-all",
  afterAll: () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
});

/** The view on screen at both sizes and schemes (issue10-rules-<name>): a screenshot, no horizontal overflow, zero axe violations. */
const shootAll = (page: Page, name: string, show?: string) => shootViews(page, `issue10-rules-${name}`, { show });

/** Runs the tool from outside the page, as an agent through the gateway would; its result when done. */
function trigger(): Promise<ToolRunResult> {
  return e2e.app.core.handlers["tools:run"]({ tool: TOOL, args: {} });
}

const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("button", { name });

describe("rules in Chromium", () => {
  it("Always answer this way: the next identical question is answered by the rule with an Undo note; after Undo the form comes back", async () => {
    const page = await e2e.open({ viewport: DESKTOP, colorScheme: "light", ready: (page) => nav(page, "Inbox").waitFor() });
    const errors = e2e.errors(page);
    await expect.poll(() => e2e.app.core.servers().find((s) => s.name === "everything")?.state, { timeout: 30_000 }).toBe("connected");

    // 1. The person answers the form and ticks "Always answer this way".
    const first = trigger();
    const form = page.getByRole("form", { name: "Question" });
    await form.waitFor();
    await form.getByRole("textbox", { name: "String", exact: true }).fill("Ada Lovelace");
    const always = form.getByRole("checkbox", { name: "Always answer this way" });
    // Unticked, the control names nothing that is not there.
    expect(await axeViolations(page)).toEqual([]);
    await always.check();
    // A rules file is in use, so both lengths are offered; both answers too.
    await form.getByRole("group", { name: "For how long" }).waitFor();
    expect(await form.getByRole("group", { name: "Answer" }).getByRole("radio").count()).toBe(2);
    await form.getByRole("radio", { name: "For this session" }).check();
    const accept = form.getByRole("button", { name: "Accept" });
    await expect.poll(() => accept.isEnabled()).toBe(true);
    await shootAll(page, "form-ticked", ".rule-control");
    await accept.click();
    const firstResult = await first;
    expect(firstResult.output).toContain("Ada Lovelace");
    const rules = e2e.app.core.handlers["rules:list"](undefined) as Promise<Array<{ id: string; explanation: string; uses: number }>>;
    const [rule] = await rules;
    expect(rule.explanation).toMatch(/^Accept the form .* from everything's tool trigger-elicitation-request sending .*"Ada Lovelace".*until the companion quits\.$/);

    // A quiet note says it was saved (its text clamped: it must not cover the view).
    const saved = page.getByRole("status", { name: "Rule notes" });
    await expect.poll(() => saved.innerText()).toContain("Rule saved:");
    const noteBox = await page.locator(".rule-note").first().boundingBox();
    expect(noteBox!.height).toBeLessThan(160);
    await page.getByRole("button", { name: "Dismiss note" }).first().click();

    // Settings lists it, in words.
    await nav(page, "Settings").click();
    const list = page.getByRole("list", { name: "Your rules" });
    await expect.poll(() => list.innerText()).toContain(rule.explanation);
    await shootAll(page, "settings", ".rule-list");
    await nav(page, "Inbox").click();

    // 2. The same question again: answered by the rule at once, no form, a quiet note with Undo.
    const focusedBefore = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80));
    const second = await trigger();
    expect(second.output).toContain("Ada Lovelace");
    const notes = page.getByRole("status", { name: "Rule notes" });
    await expect.poll(() => notes.innerText()).toContain(`Answered by your rule: ${rule.explanation}`);
    expect(await form.count()).toBe(0);
    expect(await page.getByRole("list", { name: "Pending questions" }).getByRole("button").count()).toBe(0);
    // The note does not take the focus.
    expect(await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))).toBe(focusedBefore);
    // Held by the keyboard for the screenshots (a note stays while focus is on it).
    const undo = notes.getByRole("button", { name: "Undo" });
    await undo.focus();
    await shootAll(page, "answered-by-rule");
    for (const size of [DESKTOP, POPUP]) {
      await page.setViewportSize(size);
      const box = await page.locator(".rule-note").first().boundingBox();
      expect(box!.height, `note at ${size.width} px`).toBeLessThan(size.height / 3);
    }
    await page.setViewportSize(DESKTOP);
    await undo.click();
    await expect.poll(() => notes.innerText()).toContain("Rule removed");
    expect(await (e2e.app.core.handlers["rules:list"](undefined) as Promise<unknown[]>)).toEqual([]);

    // 3. Asked again after Undo: the form is back for the person.
    const third = trigger();
    await form.waitFor();
    await form.getByRole("button", { name: "Cancel" }).click();
    expect((await third).output).not.toContain("Ada Lovelace");
    await nav(page, "Settings").click();
    await page.getByText(/^No rules\./).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  }, 180_000);

  it("an agent's permission prompt: 'Allow this exact request again' for the session answers the identical next one; a shell command is not offered", async () => {
    const page = await e2e.open({ viewport: DESKTOP, colorScheme: "light", ready: (page) => nav(page, "Inbox").waitFor() });

    let n = 0;
    const ask = (fixture: string) => {
      const agent = hookAgent("claude-code")!;
      const read = agent.read(JSON.parse(readFileSync(join(repoRoot, "test", "fixtures", "hooks", fixture), "utf8")));
      if (!read.ok) throw new Error(read.reason);
      const request = approvalRequest(agent.label, read.call, { id: `hook-${fixture}-${++n}` });
      return e2e.app.core.internals.inbox.waitFor(request, { source: { agent: agent.label } });
    };

    // A shell command: the card says why it is never allowed again by a rule, quietly.
    const shell = ask("claude-code-bash.json");
    const card = page.getByRole("region", { name: /asks to/ });
    await card.waitFor();
    await card.getByText("A shell command is always yours to allow").waitFor();
    expect(await card.getByRole("checkbox").count()).toBe(0);
    await card.getByRole("button", { name: "Answer in the terminal" }).click();
    expect((await shell).ok).toBe(false);

    // An MCP tool call: ticked, Allow makes a session rule; the identical request is allowed at once.
    const first = ask("claude-code-mcp.json");
    await card.getByRole("heading", { name: /call an MCP tool/ }).waitFor();
    const again = card.getByRole("checkbox", { name: "Allow this exact request again for this session" });
    expect(await again.isChecked()).toBe(false);
    await again.check();
    await shootAll(page, "approval-ticked", ".allow-again");
    await card.getByRole("button", { name: "Allow" }).click();
    expect((await first).ok).toBe(true);
    const second = await ask("claude-code-mcp.json");
    expect(second.ok).toBe(true);
    const notes = page.getByRole("status", { name: "Rule notes" });
    await expect.poll(() => notes.innerText()).toContain("Answered by your rule: Allow Claude Code to use");
    expect(await card.count()).toBe(0);
    await notes.getByRole("button", { name: "Undo" }).first().click();
    await expect.poll(() => notes.innerText()).toContain("Rule removed");
    await page.context().close();
  }, 120_000);
});
