// The Agents view in Chromium over the real core: HOME, XDG_CONFIG_HOME and APPDATA of this worker
// point at a temporary copy of test/fixtures/agents, so the view lists and edits only those files.
// Connect Claude Code with permission prompts: the plan shows the diff and the backup, nothing is
// written until Apply, then the file holds exactly the change and a backup of the original exists.
// Screenshots at 1280×800 and 420×640, light and dark, in test-output/screenshots.
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { repoRoot, SHOTS, startApp, useBrowser } from "./harness";

const UI_TIMEOUT = 20_000;

let root: string;
let home: string;

const e2e = useBrowser({
  uiTimeout: UI_TIMEOUT,
  app: async () => {
    root = await mkdtemp(join(tmpdir(), "agents-view-"));
    await cp(join(repoRoot, "test", "fixtures", "agents"), root, { recursive: true });
    home = join(root, "home");
    // This worker's own environment: the core reads agents' files from the machine it runs on.
    Object.assign(process.env, { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, ".config"), APPDATA: join(home, "AppData", "Roaming") });
    delete process.env.CLAUDE_CONFIG_DIR;
    delete process.env.CODEX_HOME;
    delete process.env.TOOLNEXUS_COMPANION_URL;
    return startApp({});
  },
  closeContexts: "after-all",
  afterAll: async () => {
    if (root) await rm(root, { recursive: true, force: true });
  },
});

async function openAgents(viewport: { width: number; height: number }, colorScheme: "light" | "dark"): Promise<Page> {
  const page = await e2e.open({
    viewport,
    colorScheme,
    ready: async (page) => {
      await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Agents" }).click();
      await page.getByRole("list", { name: "Agents" }).getByRole("listitem").first().waitFor();
    },
  });
  expect(e2e.errors(page)).toEqual([]);
  return page;
}

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe("Agents view in Chromium", { timeout: 180_000 }, () => {
  it("plans Claude Code with permission prompts at 1280 and 420 px, light and dark, writing nothing", async () => {
    const file = join(home, ".claude.json");
    const original = await readFile(file, "utf8");
    for (const [width, height] of [[1280, 800], [420, 640]]) {
      for (const scheme of ["light", "dark"] as const) {
        const page = await openAgents({ width, height }, scheme);
        const card = page.getByRole("article", { name: "Claude Code", exact: true });
        await card.getByRole("checkbox", { name: "With permission prompts" }).check();
        await card.getByRole("button", { name: "Connect Claude Code", exact: true }).click();
        const plan = page.getByRole("region", { name: "Planned change for Claude Code" });
        await plan.getByRole("button", { name: "Apply" }).waitFor();
        await expect(plan.getByLabel(`Changes to ${file}`).innerText()).resolves.toContain('"toolnexus"');
        await expect(plan.getByText(`${file}.bak-<time>`).count()).resolves.toBe(1);
        expect(await noSideScroll(page)).toBe(true);
        await plan.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `agents-plan-${width}-${scheme}.png`) });
        await page.close();
      }
    }
    expect(await readFile(file, "utf8")).toBe(original);
    expect((await readdir(home)).filter((n) => n.includes(".bak-"))).toEqual([]);
  });

  it("Apply writes the change with a backup, the card says Connected; Zed over HTTP asks first", async () => {
    const file = join(home, ".claude.json");
    const original = await readFile(file, "utf8");
    const page = await openAgents({ width: 420, height: 640 }, "light");
    const card = page.getByRole("article", { name: "Claude Code", exact: true });
    await card.getByRole("button", { name: "Connect Claude Code", exact: true }).click();
    await page.getByRole("region", { name: "Planned change for Claude Code" }).getByRole("button", { name: "Apply" }).click();
    await page.getByRole("status").filter({ hasText: "Written" }).waitFor();
    await card.getByText("Connected", { exact: true }).waitFor();
    const backups = (await readdir(home)).filter((n) => n.startsWith(".claude.json.bak-"));
    expect(backups).toHaveLength(1);
    expect(await readFile(join(home, backups[0]), "utf8")).toBe(original);
    expect(await readFile(file, "utf8")).toContain('"toolnexus"');

    const zed = page.getByRole("article", { name: "Zed" });
    await zed.getByRole("combobox", { name: "How Zed reaches the companion" }).selectOption("http");
    await zed.getByRole("button", { name: "Connect Zed", exact: true }).click();
    const choice = page.getByRole("group", { name: "Choose how the token is kept" });
    await choice.waitFor();
    expect(await page.getByRole("region", { name: "Planned change for Zed" }).getByRole("button", { name: "Apply" }).count()).toBe(0);
    expect(await noSideScroll(page)).toBe(true);
    await choice.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, "agents-zed-choice-420-light.png") });
  });
});
