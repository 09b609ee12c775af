// Agents' permission prompts in the browser, end to end: the real hook process (`node
// bin/toolnexus-companion hook …`, a documented hook input on stdin) posts to the real companion
// in browser mode, Debian's Chromium answers on the approval card, and the hook prints the agent's
// decision. Screenshots at 1280×800 and 420×640, light and dark, in test-output/screenshots.
import { describe, it, expect } from "vitest";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { cancelPending, repoRoot, SHOTS, startApp, useBrowser } from "./harness";

const BIN = join(repoRoot, "bin", "toolnexus-companion");
const FIXTURES = join(repoRoot, "test", "fixtures", "hooks");
const UI_TIMEOUT = 15_000;

const e2e = useBrowser({ uiTimeout: UI_TIMEOUT, app: () => startApp({ mcpServers: {} }), afterEach: () => cancelPending(e2e.app) });

function hook(agent: string, fixture: string): Promise<{ code: number | null; stdout: string }> {
  const app = e2e.app;
  const child = spawn(process.execPath, [BIN, "hook", agent], {
    cwd: repoRoot,
    env: { ...process.env, TOOLNEXUS_COMPANION_URL: app.server.url, TOOLNEXUS_COMPANION_TOKEN: app.core.token(), TOOLNEXUS_HOOK_TIMEOUT: "50" },
    stdio: ["pipe", "pipe", "ignore"],
  });
  let stdout = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stdin.end(readFileSync(join(FIXTURES, fixture)));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout })));
}

async function openPage(viewport: { width: number; height: number }, colorScheme: "light" | "dark"): Promise<Page> {
  const page = await e2e.open({ viewport, colorScheme });
  expect(e2e.errors(page)).toEqual([]);
  return page;
}

async function openApproval(page: Page, prompt: RegExp) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Inbox" }).click();
  await page.getByRole("list", { name: "Pending questions" }).getByRole("button", { name: prompt }).click();
  const card = page.getByRole("region", { name: /asks to/ });
  await card.waitFor();
  return card;
}

const waitForQuestion = (prompt: RegExp) =>
  expect.poll(() => e2e.app.core.internals.inbox.list().some((e) => e.request.kind === "approval" && prompt.test(e.request.prompt)), { timeout: 20_000 }).toBe(true);

describe("approval card in Chromium", () => {
  it("shows a Claude Code command at 1280 and 420 px, light and dark, and Allow reaches the hook", async () => {
    const done = hook("claude-code", "claude-code-bash.json");
    const prompt = /rm -rf build/;
    await waitForQuestion(prompt);
    let lastPage: Page | undefined;
    for (const [width, height] of [[1280, 800], [420, 640]]) {
      for (const scheme of ["light", "dark"] as const) {
        const page = (lastPage = await openPage({ width, height }, scheme));
        const card = await openApproval(page, prompt);
        await expect(card.getByRole("heading").innerText()).resolves.toBe("Claude Code asks to run a command");
        await expect(card.getByLabel("Command").innerText()).resolves.toBe("rm -rf build && npm run build");
        // The card and everything in it fit the width (the app's own top bar is not this test's).
        const spill = await card.evaluate((el, w) => [el, ...el.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > w + 0.5).map((e) => e.tagName), width);
        expect(spill).toEqual([]);
        await page.screenshot({ path: join(SHOTS, `approval-${width}-${scheme}.png`) });
      }
    }
    const page = lastPage!;
    await page.getByRole("region", { name: /asks to/ }).getByRole("button", { name: "Allow" }).click();
    expect(await done).toEqual({ code: 0, stdout: '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n' });
  });

  it("Deny with a message from the card reaches the Codex hook as its deny decision", async () => {
    const done = hook("codex", "codex-apply-patch.json");
    const prompt = /2 files/;
    await waitForQuestion(prompt);
    const page = await openPage({ width: 420, height: 640 }, "light");
    const card = await openApproval(page, prompt);
    await expect(card.getByRole("list", { name: "Files" }).innerText()).resolves.toMatch(/src\/cart\.ts\s+\+2 −1 lines/);
    await card.getByLabel(/Message to Codex if you deny/).fill("Add the test in a separate change.");
    await page.screenshot({ path: join(SHOTS, "approval-edit-420-light.png"), fullPage: true });
    // The page sends the message; what the hook prints is what the companion delivered.
    const answered = new Promise<Record<string, unknown> | undefined>((resolve) =>
      e2e.app.core.internals.inbox.on((event) => {
        if (event.type === "answered") resolve(event.answer.data);
      }),
    );
    await card.getByRole("button", { name: "Deny" }).click();
    const delivered = await answered;
    const message = typeof delivered?.message === "string" ? delivered.message : "The person denied this in Toolnexus Companion.";
    const result = await done;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message } } });
  });

  it("\"Answer in the terminal\" gives the hook no verdict", async () => {
    const done = hook("claude-code", "claude-code-mcp.json");
    const prompt = /create_issue/;
    await waitForQuestion(prompt);
    const page = await openPage({ width: 1280, height: 800 }, "dark");
    const card = await openApproval(page, prompt);
    await page.screenshot({ path: join(SHOTS, "approval-mcp-1280-dark.png") });
    await card.getByRole("button", { name: "Answer in the terminal" }).click();
    expect(await done).toEqual({ code: 0, stdout: "" });
  });
});
