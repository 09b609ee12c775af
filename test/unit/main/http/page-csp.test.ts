// The page renders server-controlled text (prompts, titles, descriptions), so no policy it runs
// under may allow eval or inline script: the listener's header, the build's meta tag, and the
// Electron window's policy (test/unit/desktop/guards.test.ts) all say so; that the built page runs
// under it in Chromium is test/e2e/page-csp.test.ts.
import { createServer, type Server } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_CSP, serveStatic } from "../../../../src/main/http/static-files";
import { CSP as BUILD_CSP } from "../../../../vite.config";
import { CONTENT_SECURITY_POLICY as DESKTOP_CSP } from "../../../../src/main/desktop/app-url";
import { PAGE_CSP as SHARED_CSP } from "../../../../src/shared/csp";

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
