// The page renders server-controlled text (prompts, titles, descriptions), so no policy it runs
// under may allow eval or inline script: the listener's header, the build's meta tag, and the
// Electron window's policy (test/unit/desktop/guards.test.ts) all say so.
import { createServer, type Server } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_CSP, serveStatic } from "../../../src/main/http/static-files";
import { CSP as BUILD_CSP } from "../../../vite.config";
import { CONTENT_SECURITY_POLICY as DESKTOP_CSP } from "../../../src/main/desktop/app-url";
import { PAGE_CSP as SHARED_CSP } from "../../../src/shared/csp";

function scriptSrc(policy: string): string | undefined {
  return policy
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith("script-src"));
}

describe("the page's Content-Security-Policy", () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), "tnc-csp-"));
    writeFileSync(join(root, "index.html"), "<!doctype html><title>t</title>");
    server = createServer((req, res) => void serveStatic(root, new URL(req.url ?? "/", "http://x").pathname, req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ["listener header", PAGE_CSP],
    ["build meta tag", BUILD_CSP],
  ])("%s: scripts from our origin only, no eval", (_name, policy) => {
    expect(policy).not.toContain("unsafe-eval");
    expect(scriptSrc(policy)).toBe("script-src 'self'");
    expect(policy).toContain("object-src 'none'");
  });

  it("is one policy: browser-mode header, desktop header and build meta tag are the same string", () => {
    expect(PAGE_CSP).toBe(SHARED_CSP);
    expect(DESKTOP_CSP).toBe(SHARED_CSP);
    expect(BUILD_CSP).toBe(SHARED_CSP);
  });

  it("allows no inline style or script, and nothing a meta tag would ignore", () => {
    expect(SHARED_CSP).not.toContain("unsafe-inline");
    const styleSrc = SHARED_CSP.split(";").map((d) => d.trim()).find((d) => d.startsWith("style-src"));
    expect(styleSrc).toBe("style-src 'self'");
    // Browsers ignore these in a meta tag and log a console error for each.
    for (const headerOnly of ["frame-ancestors", "sandbox", "report-uri"]) expect(SHARED_CSP).not.toContain(headerOnly);
  });

  it("the listener sends it with the page", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(response.status).toBe(200);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toBe(PAGE_CSP);
    expect(policy).not.toContain("unsafe-eval");
  });
});

// The policy must not break the page: the built renderer, served by the real app, renders a
// question form in Chromium under it without a single violation (Svelte's styles are a file; its
// transitions use the Web Animations API, which style-src does not govern).
describe("the built page under its policy, in Chromium", () => {
  it("renders the inbox and a question form with no CSP violation", async () => {
    const { startApp, launchChromium } = await import("../../e2e/harness");
    const app = await startApp({ mcpServers: {} });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
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
    } finally {
      await browser.close();
      await app.close();
    }
  }, 60_000);
});
