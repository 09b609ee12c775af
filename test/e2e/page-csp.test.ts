// The built page under its Content-Security-Policy (test/unit/main/http/page-csp.test.ts checks the
// policy itself), in Chromium.
import { describe, expect, it } from "vitest";
import { PAGE_CSP } from "../../src/main/http/static-files";
import { startApp, useBrowser } from "./harness";

// The policy must not break the page: the built renderer, served by the real app, renders a
// question form in Chromium under it without a single violation (Svelte's styles are a file; its
// transitions use the Web Animations API, which style-src does not govern). The context's timeout
// is Playwright's own default (30 s), for what sets none below.
const e2e = useBrowser({ uiTimeout: 30_000, app: () => startApp({ mcpServers: {} }) });

describe("the built page under its policy, in Chromium", () => {
  it("renders the inbox and a question form with no CSP violation", async () => {
    const app = e2e.app;
    // Listening before the page loads, so nothing it logs or refuses on the way is missed.
    const page = await (await e2e.context()).newPage();
    const violations: string[] = [];
    const consoleLines: string[] = [];
    page.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => violations.push(`pageerror: ${e.message}`));
    await page.exposeFunction("__reportViolation", (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => {
        (window as unknown as { __reportViolation(t: string): void }).__reportViolation(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    const response = await page.goto(app.pageUrl);
    expect(response!.headers()["content-security-policy"]).toBe(PAGE_CSP);
    const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
    expect(meta).toBe(PAGE_CSP);
    await page.getByRole("navigation", { name: "Main" }).waitFor({ timeout: 20_000 });

    const answer = app.core.internals.inbox.waitFor(
      {
        id: "csp-1",
        kind: "input",
        prompt: "Deploy <style>body{display:none}</style> where?",
        data: { schema: { type: "object", properties: { env: { type: "string", enum: ["staging", "prod"] }, note: { type: "string", title: "Note" } }, required: ["env"] } },
      },
      { source: { server: "csp-check" } },
    );
    await page.getByRole("list", { name: "Pending questions" }).getByRole("button", { name: /Deploy/ }).click({ timeout: 20_000 });
    const form = page.getByRole("form", { name: "Question" });
    await form.waitFor({ timeout: 20_000 });
    await form.getByRole("textbox", { name: "Note" }).fill("hello");
    await form.getByRole("button", { name: "Decline" }).click();
    expect(await answer).toMatchObject({ id: "csp-1", ok: false, reason: "declined" });
    await page.waitForTimeout(300);
    expect(violations).toEqual([]);
    expect(consoleLines.filter((l) => /Content Security Policy|Refused to/i.test(l))).toEqual([]);
  }, 60_000);
});
