// The Servers view in the browser, end to end: the real companion started from a config file naming a
// command that does not exist beside a working server, and Debian's Chromium. The failed server
// comes first with its next step ("Is it installed?"), and Retry reaches main's servers:restart
// (its log line says the person asked). Disable and Enable edit the real config file and the
// watcher applies them; Remove asks first and removes the entry. The tool search filters across
// servers. Screenshots at 1280×800 and 420×640, light and dark, with overflow and axe checks.
import { describe, it, expect } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { CANCEL_FIXTURE, DESKTOP, EVERYTHING, horizontalOverflow, shootAll, useBrowser } from "./harness";
import { startOAuthServer } from "../integration/oauth-harness";
import { startFromFile } from "./config-app";

const UI_TIMEOUT = 20_000;
const MISSING = "/nonexistent/toolnexus-no-such-server";
let configPath: string;

const e2e = useBrowser({ uiTimeout: UI_TIMEOUT, app: () => startOnConfigFile(), closeContexts: "after-all" });

/** The companion on a config file naming server-everything, a withdrawing fixture and a command that does not exist. */
function startOnConfigFile() {
  configPath = join(mkdtempSync(join(tmpdir(), "tnc-servers-view-")), "mcp.json");
  writeFileSync(
    configPath,
    JSON.stringify(
      {
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
          withdraws: { command: process.execPath, args: [CANCEL_FIXTURE] },
          missing: { command: MISSING },
        },
      },
      null,
      2,
    ),
  );
  return startFromFile(configPath);
}

function openServers(): Promise<Page> {
  return e2e.open({
    viewport: DESKTOP,
    ready: async (page) => {
      await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Servers", exact: true }).click();
      await page.getByRole("list", { name: "Servers" }).waitFor();
    },
  });
}

const card = (page: Page, name: string) => page.getByRole("article").filter({ has: page.getByRole("heading", { name, level: 2, exact: true }) });

describe("Servers view", () => {
  it("a server whose command is missing comes first with its next step, and Retry asks main to restart it", async () => {
    const page = await openServers();
    const missing = card(page, "missing");
    await missing.getByText("is it installed?").waitFor();
    expect(await missing.innerText()).toContain(`Exits at start: “${MISSING}” not found — is it installed?`);
    await card(page, "everything").getByText("connected", { exact: true }).waitFor({ timeout: 30_000 });
    const first = page.getByRole("list", { name: "Servers" }).getByRole("heading", { level: 2 }).first();
    expect(await first.innerText()).toBe("missing");
    await shootAll(page, "issue8-servers-failed");

    expect(e2e.app.log.some((l) => l.includes('"missing": restarting (asked by the person)'))).toBe(false);
    await missing.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => e2e.app.log.some((l) => l.includes('"missing": restarting (asked by the person)')), { timeout: UI_TIMEOUT }).toBe(true);
    // Still missing: it stays first, with the same next step.
    await missing.getByText("is it installed?").waitFor();
  }, 120_000);

  it("the search filters tools across servers; folds show the count", async () => {
    const page = await openServers();
    await card(page, "everything").getByText("connected", { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole("searchbox", { name: "Search tools" }).fill("elicitation");
    await page.getByText(/tools? match/).waitFor();
    const headings = await card(page, "everything").getByRole("heading", { level: 3 }).allInnerTexts();
    expect(headings.length).toBeGreaterThan(0);
    expect(headings).toContain("trigger-elicitation-request");
    expect(headings).not.toContain("echo");
    expect(await card(page, "everything").getByText(/^Tools \(\d+ of \d+ match\)$/).count()).toBe(1);
    await shootAll(page, "issue8-servers-search");
    // The narrowest tray popup too.
    await page.setViewportSize({ width: 360, height: 640 });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  }, 120_000);

  it("Disable and Enable edit the config file and the watcher applies them; Remove asks first", async () => {
    const page = await openServers();
    const withdraws = card(page, "withdraws");
    await withdraws.getByText("connected", { exact: true }).waitFor({ timeout: 30_000 });
    await withdraws.getByRole("button", { name: "Disable" }).click();
    await withdraws.getByText("disabled", { exact: true }).waitFor();
    expect(JSON.parse(readFileSync(configPath, "utf8")).mcpServers.withdraws).toMatchObject({ command: process.execPath });
    expect(readFileSync(configPath, "utf8")).toMatch(/"(enabled|disabled)"/);
    // Disabled servers go last.
    expect(await page.getByRole("list", { name: "Servers" }).getByRole("heading", { level: 2 }).last().innerText()).toBe("withdraws");
    await withdraws.getByRole("button", { name: "Enable" }).click();
    await withdraws.getByText("connected", { exact: true }).waitFor({ timeout: 30_000 });

    const missing = card(page, "missing");
    await missing.getByRole("button", { name: "Remove" }).click();
    const ask = missing.getByRole("group", { name: "Remove missing?" });
    await ask.waitFor();
    await shootAll(page, "issue8-servers-remove-ask");
    await ask.getByRole("button", { name: "Keep it" }).click();
    expect(JSON.parse(readFileSync(configPath, "utf8")).mcpServers.missing).toBeTruthy();
    await missing.getByRole("button", { name: "Remove" }).click();
    await missing.getByRole("button", { name: "Yes, remove" }).click();
    await expect.poll(() => card(page, "missing").count(), { timeout: UI_TIMEOUT }).toBe(0);
    expect(JSON.parse(readFileSync(configPath, "utf8")).mcpServers.missing).toBeUndefined();
  }, 120_000);
});

describe("Servers view: sign-in to a remote server (issue 9)", () => {
  it("a declined sign-in leaves Needs sign-in with a Sign in button; Sign in asks again, the browser completes it, and Sign out is offered", async () => {
    const oauth = await startOAuthServer();
    const dir = mkdtempSync(join(tmpdir(), "tnc-servers-signin-"));
    const path = join(dir, "mcp.json");
    writeFileSync(path, JSON.stringify({ mcpServers: { secure: { url: oauth.url } } }));
    const own = await startFromFile(path);
    try {
      const page = await e2e.open({ viewport: DESKTOP, url: own.pageUrl, ready: false });
      const context = page.context();
      // The first connect asks at once; the person says no.
      const ask = page.getByRole("region", { name: "Authorization request" });
      await ask.waitFor({ timeout: 30_000 });
      await ask.getByRole("button", { name: "Decline" }).click();
      await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Servers", exact: true }).click();
      const secure = card(page, "secure");
      await secure.getByText("Needs sign-in", { exact: true }).waitFor({ timeout: 30_000 });
      await shootAll(page, "issue9-servers-needs-sign-in");
      await secure.getByRole("button", { name: "Sign in" }).click();
      // The sign-in question comes to the person; Open in browser follows the flow to the callback.
      await ask.waitFor({ timeout: 30_000 });
      const popup = context.waitForEvent("page");
      await ask.getByRole("button", { name: "Open in browser" }).click();
      await (await popup).waitForLoadState();
      await expect.poll(() => own.core.servers().find((s) => s.name === "secure")?.state, { timeout: 30_000 }).toBe("connected");
      await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Servers", exact: true }).click();
      await secure.getByText("connected", { exact: true }).waitFor();
      await secure.getByRole("button", { name: "Sign out" }).click();
      // Every stored item is gone: the server needs a new sign-in, and the card says so again.
      await secure.getByText("Needs sign-in", { exact: true }).waitFor();
      expect(own.core.servers().find((s) => s.name === "secure")).toMatchObject({ state: "needs-sign-in", error: "signed out" });
      expect(await secure.getByRole("alert").count()).toBe(0);
      await context.close();
    } finally {
      await own.close();
    }
  }, 150_000);
});
