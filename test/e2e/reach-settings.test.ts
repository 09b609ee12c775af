// Settings → "When you are away" in Chromium on the built page: the person turns ntfy on with a
// topic URL and a token, presses "Send a test" and the test reaches a local ntfy stand-in (the
// token only in its Authorization header, never back on the page); a URL that cannot work is
// refused next to the form. Screenshots at 1280×800 and 420×640, light and dark, each checked for
// sideways scroll and by axe.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { shootAll, startApp, useBrowser } from "./harness";
import { until } from "../helpers/poll";

const UI_TIMEOUT = 15_000;
const TOKEN = "tk_e2e_ntfy_token_0123456789";
let dir: string;
let ntfy: Server;
let ntfyUrl: string;
const hits: { headers: IncomingMessage["headers"]; body: string; path: string }[] = [];

const e2e = useBrowser({
  uiTimeout: UI_TIMEOUT,
  app: async () => {
    dir = mkdtempSync(join(tmpdir(), "tnc-reach-e2e-"));
    ntfy = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += String(c)));
      req.on("end", () => {
        hits.push({ headers: req.headers, body, path: req.url ?? "" });
        res.writeHead(200).end("{}");
      });
    });
    await new Promise<void>((resolve) => ntfy.listen(0, "127.0.0.1", resolve));
    ntfyUrl = `http://127.0.0.1:${(ntfy.address() as AddressInfo).port}/companion-away`;
    return startApp({ mcpServers: {} }, { core: { reach: { path: join(dir, "reach.json") } } });
  },
  closeContexts: "after-all",
  afterAll: async () => {
    await new Promise<void>((resolve) => ntfy.close(() => resolve()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
});

const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("button", { name });

describe("Settings: When you are away", () => {
  it("turns ntfy on, sends a test, and refuses a URL that cannot work", async () => {
    const page = await e2e.open();
    await nav(page, "Settings").click();
    const section = page.getByRole("region", { name: "When you are away" });
    await section.getByText("Paired devices:").waitFor();
    await shootAll(page, "issue20-away-settings", { show: ".reach h2" });

    const ntfyGroup = section.getByRole("group", { name: "ntfy" });
    await ntfyGroup.getByLabel("Send to ntfy").check();
    await ntfyGroup.getByLabel("Topic URL").fill(ntfyUrl);
    await ntfyGroup.getByLabel("Access token (optional)").fill(TOKEN);
    await ntfyGroup.getByRole("button", { name: "Send a test" }).click();
    await expect.poll(() => ntfyGroup.getByRole("status", { name: "ntfy test" }).textContent(), { timeout: UI_TIMEOUT }).toBe("ntfy: the test was sent.");
    const [hit] = await until(() => hits.length > 0 && hits, 5000, "the test at ntfy");
    expect(hit.path).toBe("/companion-away");
    expect(hit.headers.title).toBe("Toolnexus Companion");
    expect(hit.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(hit.body).toContain("This is a test from Settings");
    // The token went to the keychain stand-in, not the file, and the page no longer holds it.
    expect(readFileSync(join(dir, "reach.json"), "utf8")).not.toContain(TOKEN);
    expect(await ntfyGroup.getByLabel("Access token (optional)").inputValue()).toBe("");
    // No keychain in this app (the core's memory store), and the page says so.
    await ntfyGroup.getByText("Kept for this session only (no keychain).").waitFor();
    expect(await page.content()).not.toContain(TOKEN);
    await shootAll(page, "issue20-away-ntfy-tested", { show: ".reach fieldset.channel" });

    await ntfyGroup.getByLabel("Topic URL").fill("http://ntfy.example.org/topic");
    await section.getByRole("button", { name: "Save" }).click();
    await section.getByRole("alert").filter({ hasText: "Not saved: the marked field above needs a change." }).waitFor();
    // The refused field is marked, focused, and says why.
    const url = ntfyGroup.getByLabel("Topic URL");
    await expect.poll(() => url.getAttribute("aria-invalid")).toBe("true");
    expect(await url.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await ntfyGroup.locator("p.error").textContent()).toBe("The ntfy topic URL must start with https:// (http:// only to this computer)");
    await shootAll(page, "issue20-away-refused", { show: ".reach p.error" });
    expect(e2e.errors(page)).toEqual([]);
  });
});
