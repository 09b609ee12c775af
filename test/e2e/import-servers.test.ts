// In-app import end to end: a temporary HOME holding a Claude Desktop and a Cursor
// config that both name a server "coffee" (different servers), the real companion started on a
// config file that does not exist yet, Debian's Chromium. The first run lists both files, the
// clash unticked with why; the person ticks it and imports; the file is written and both servers
// connect (the shipped demo server and server-everything). Shot at 1280×800 and 420×640, light
// and dark, checked by axe.
import { describe, it, expect } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { axeViolations, DESKTOP, EVERYTHING, horizontalOverflow, repoRoot, shootAll, useBrowser } from "./harness";
import { startFromFile, useHome } from "./config-app";
import { parseConfigText } from "../../src/main/base/config-text";

const UI_TIMEOUT = 30_000;
const DEMO = join(repoRoot, "src", "demo", "demo-server.mjs");
let home: string;
let configPath: string;
let restoreHome = () => {};

const e2e = useBrowser({
  uiTimeout: UI_TIMEOUT,
  app: () => startOnOtherApps(),
  closeContexts: "after-all",
  afterAll: () => restoreHome(),
});

/** The companion on a first run, in a HOME holding a Claude Desktop and a Cursor config. */
function startOnOtherApps() {
  home = mkdtempSync(join(tmpdir(), "tnc-import-home-"));
  mkdirSync(join(home, ".config", "Claude"), { recursive: true });
  mkdirSync(join(home, ".cursor"), { recursive: true });
  writeFileSync(join(home, ".config", "Claude", "claude_desktop_config.json"), JSON.stringify({ mcpServers: { coffee: { command: process.execPath, args: [DEMO] } } }, null, 2));
  writeFileSync(
    join(home, ".cursor", "mcp.json"),
    `{\n  // Cursor accepts comments\n  "mcpServers": {\n    "coffee": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(EVERYTHING)}, "stdio"] },\n    "nothing": { "note": "no command, no url" },\n  }\n}\n`,
  );
  // The companion reads the other clients of this process's HOME (this worker's only).
  restoreHome = useHome(home);
  configPath = join(home, ".config", "toolnexus-companion", "mcp.json");
  return startFromFile(configPath);
}

function openPage(): Promise<Page> {
  return e2e.open({ viewport: DESKTOP });
}

describe("import from other apps", () => {
  it("lists Claude Desktop's and Cursor's servers, keeps the clashing name apart, imports both and they connect", async () => {
    const page = await openPage();
    const region = page.getByRole("region", { name: "Found in your other apps" });
    await region.waitFor();
    const claude = region.getByRole("group", { name: /Claude Desktop/ });
    const cursor = region.getByRole("group", { name: /Cursor/ });
    await claude.waitFor();
    expect(await claude.innerText()).toContain(join(home, ".config", "Claude", "claude_desktop_config.json"));
    expect(await claude.getByRole("checkbox", { name: "coffee", exact: true }).isChecked()).toBe(true);
    const clash = cursor.getByRole("checkbox", { name: "coffee@cursor" });
    expect(await clash.isChecked()).toBe(false);
    expect(await cursor.innerText()).toContain('Another server is already called "coffee"');
    expect(await cursor.innerText()).toContain("Cannot be imported");
    await shootAll(page, "issue8-import-list");

    await clash.check();
    const button = region.getByRole("button", { name: "Import 2 servers" });
    await button.click();

    // The Servers view, where the imported servers are seen connecting.
    await page.getByRole("heading", { name: "coffee", exact: true, level: 2 }).waitFor();
    await page.getByRole("heading", { name: "coffee@cursor", exact: true, level: 2 }).waitFor();
    // What was imported is said there too (the list that said it is gone with the first run).
    await page.getByRole("status").filter({ hasText: "Imported 2 servers: coffee, coffee@cursor. They start in a moment." }).waitFor();
    const written = parseConfigText(readFileSync(configPath, "utf8")) as { mcpServers: Record<string, { args: string[]; importedFrom: Array<{ client: string }> }> };
    expect(Object.keys(written.mcpServers)).toEqual(["coffee", "coffee@cursor"]);
    expect(written.mcpServers.coffee.importedFrom[0].client).toBe("claude-desktop");
    expect(written.mcpServers["coffee@cursor"].args).toEqual([EVERYTHING, "stdio"]);
    // Both connect: the config watcher started them from the written file.
    await expect
      .poll(() => e2e.app.core.internals.source.servers().filter((s) => s.state === "connected").map((s) => s.name).sort(), { timeout: 45_000 })
      .toEqual(["coffee", "coffee@cursor"]);
    await expect.poll(() => page.getByText("connected", { exact: true }).count(), { timeout: UI_TIMEOUT }).toBe(2);
    await shootAll(page, "issue8-import-done");

    // The Servers view's action shows both as already added now, with nothing left to import.
    await page.getByRole("button", { name: "Import from other apps" }).click();
    await region.getByText("Already added", { exact: true }).first().waitFor();
    expect(await region.getByText("Already added", { exact: true }).count()).toBe(2);
    expect(await region.getByRole("button", { name: "Import 0 servers" }).isDisabled()).toBe(true);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await shootAll(page, "issue8-import-servers-view");
  }, 180_000);
});
