// The sign-in with a real browser: Debian's Chromium is the person's system browser. The question's
// accept is their click ("Open in browser"); Chromium follows the authorization server's redirect
// to the loopback callback, whose page tells them it worked.
import { afterEach, describe, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import type { Inbox } from "../../src/main/inbox";
import { createMemoryStore } from "../../src/main/secrets";
import type { PendingEntry } from "../../src/shared/types";
import { CHROMIUM_ARGS } from "../e2e/harness";
import { companion, startOAuthServer, statusOf, until } from "./oauth-harness";

let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

describe("OAuth sign-in in Chromium", () => {
  it("the person opens the link, the browser lands on the callback page, the server connects", async () => {
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    const server = await startOAuthServer();
    const landed: Array<{ url: string; heading: string; text: string }> = [];
    const person = (entry: PendingEntry, inbox: Inbox) => {
      if (entry.request.kind !== "authorization") return;
      inbox.answer(entry.request.id, { ok: true });
      void (async () => {
        await page.goto(entry.request.url!);
        landed.push({ url: page.url(), heading: await page.locator("h1").innerText(), text: await page.locator("p").innerText() });
      })();
    };
    const run = await companion(createMemoryStore("test"), server.url, person);
    await until(run.source, (s) => s.state === "connected");
    await expect.poll(() => landed.length).toBe(1);
    expect(new URL(landed[0].url).origin + new URL(landed[0].url).pathname).toBe(run.callback.url);
    expect(landed[0].heading).toBe("Signed in");
    expect(landed[0].text).toContain('Signed in to "secure"');
    expect(statusOf(run.source)?.toolCount).toBe(1);
  }, 40_000);
});
