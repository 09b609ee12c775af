// A server within every per-tool bound can still offer a lot: 200 tools of 240 KiB each is a
// 48 MiB list. The page must load anyway, in Chromium over the real WebSocket: the servers list
// carries tool summaries, one tool's schema comes (tools:get) when the person opens it, and no
// message to the page is past the WebSocket message bound, so the socket is never cut.
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, repoRoot, startApp, type App, rendererDir } from "../../e2e/harness";
import { MAX_WS_MESSAGE_BYTES } from "../../../src/shared/limits";

const FIXTURE = join(repoRoot, "test", "fixtures", "big-tools.mjs");
let app: App;
let browser: Browser;

beforeAll(async () => {
  rendererDir();
  app = await startApp({ mcpServers: { big: { command: process.execPath, args: [FIXTURE] } } });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("a server of 200 tools × 240 KiB in the page", () => {
  it("loads, lists every tool, opens one with its schema, and the socket is never cut", { timeout: 120_000 }, async () => {
    expect(app.core.servers().find((s) => s.name === "big")).toMatchObject({ state: "connected", toolCount: 200 });
    const page = await browser.newPage();
    // Every socket's close code and every message's size, as the page saw them.
    await page.addInitScript(() => {
      const w = window as unknown as { __closes: number[]; __largest: number; WebSocket: typeof WebSocket };
      w.__closes = [];
      w.__largest = 0;
      const Native = w.WebSocket;
      w.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          this.addEventListener("close", (event) => w.__closes.push(event.code));
          this.addEventListener("message", (event) => {
            if (typeof event.data === "string") w.__largest = Math.max(w.__largest, new Blob([event.data]).size);
          });
        }
      };
    });
    const started = Date.now();
    await page.goto(app.pageUrl);
    await page.getByRole("button", { name: "Servers" }).click();
    await page.locator('form[aria-label="Run big_199"]').waitFor({ state: "attached", timeout: 30_000 });
    const loadMs = Date.now() - started;
    expect(await page.locator('form[aria-label^="Run big_"]').count()).toBe(200);
    // Open one tool: its schema (240 fields, past a flat form's size) comes whole, as JSON to edit.
    const tools = page.getByText("Tools (200)");
    await tools.click();
    const one = page.locator('form[aria-label="Run big_7"]');
    await one.getByText("Arguments").click();
    await one.getByRole("textbox", { name: "Arguments (JSON)" }).waitFor({ timeout: 20_000 });
    const seen = await page.evaluate(() => {
      const w = window as unknown as { __closes: number[]; __largest: number };
      return { closes: w.__closes, largest: w.__largest };
    });
    console.log(`big-tools-page: ${JSON.stringify({ loadMs, largestMessageBytes: seen.largest, closes: seen.closes })}`);
    expect(seen.closes).toEqual([]);
    expect(seen.largest).toBeLessThan(MAX_WS_MESSAGE_BYTES);
    expect(app.log.filter((l) => /stopped reading|past the .* bound/.test(l))).toEqual([]);
    await page.close();
  });
});
