import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appProtocolHandler, resolveAppAsset } from "../../../../src/main/desktop/app-protocol";
import { APP_URL, CONTENT_SECURITY_POLICY } from "../../../../src/main/desktop/app-url";
import { canOpenExternal, isAllowedNavigation, isTrustedSender } from "../../../../src/main/desktop/guards";
import { windowOptions } from "../../../../src/main/desktop/window-options";

describe("windowOptions", () => {
  const options = windowOptions({ preloadPath: "/app/out/preload/index.cjs" });

  it("isolates and sandboxes the page with our CommonJS preload", () => {
    expect(options.webPreferences).toMatchObject({
      preload: "/app/out/preload/index.cjs",
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
    });
  });

  it("starts hidden and follows the theme's background", () => {
    expect(options.show).toBe(false);
    expect(windowOptions({ preloadPath: "p", dark: true }).backgroundColor).not.toBe(options.backgroundColor);
  });
});

describe("isAllowedNavigation", () => {
  it("allows our own page, also with a hash or query", () => {
    expect(isAllowedNavigation(APP_URL)).toBe(true);
    expect(isAllowedNavigation(`${APP_URL}#question-1`)).toBe(true);
    expect(isAllowedNavigation(`${APP_URL}?view=servers`)).toBe(true);
  });

  it.each([
    "https://example.com/",
    "http://127.0.0.1:7315/index.html",
    "file:///etc/passwd",
    "companion://app/other.html",
    "companion://evil/index.html",
    "javascript:alert(1)",
    "not a url",
    "",
  ])("blocks %s", (url) => {
    expect(isAllowedNavigation(url)).toBe(false);
  });
});

describe("isTrustedSender", () => {
  const ours = { webContentsId: 7, appUrl: APP_URL };

  it("accepts our window's top frame showing our page", () => {
    expect(isTrustedSender({ webContentsId: 7, frameUrl: APP_URL, isMainFrame: true }, ours)).toBe(true);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: `${APP_URL}#x`, isMainFrame: true }, ours)).toBe(true);
  });

  it("refuses another WebContents", () => {
    expect(isTrustedSender({ webContentsId: 8, frameUrl: APP_URL, isMainFrame: true }, ours)).toBe(false);
  });

  it("refuses an iframe, even one on our page", () => {
    expect(isTrustedSender({ webContentsId: 7, frameUrl: APP_URL, isMainFrame: false }, ours)).toBe(false);
  });

  it("refuses a frame that navigated elsewhere or is gone", () => {
    expect(isTrustedSender({ webContentsId: 7, frameUrl: "https://evil.example/", isMainFrame: true }, ours)).toBe(false);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: null, isMainFrame: true }, ours)).toBe(false);
  });

  it("refuses everyone while there is no window", () => {
    expect(isTrustedSender({ webContentsId: 7, frameUrl: APP_URL, isMainFrame: true }, { webContentsId: undefined })).toBe(false);
  });
});

describe("canOpenExternal", () => {
  it.each(["https://github.com/login/oauth/authorize?client_id=x", "http://localhost:8080/callback", "https://xn--80ak6aa92e.com/"])(
    "allows %s",
    (url) => {
      expect(canOpenExternal(url)).toBe(true);
    },
  );

  it.each([
    "file:///etc/passwd",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "smb://server/share",
    "vscode://extension/x",
    "mailto:a@b.c",
    "ftp://example.com/",
    "https://github.com@evil.example/",
    "https://user:pass@example.com/",
    "https://",
    "github.com",
    "",
    "not a url",
  ])("refuses %s", (url) => {
    expect(canOpenExternal(url)).toBe(false);
  });

  it("refuses non-strings and absurdly long urls", () => {
    expect(canOpenExternal(undefined)).toBe(false);
    expect(canOpenExternal({ href: "https://x.y" })).toBe(false);
    expect(canOpenExternal(`https://example.com/${"a".repeat(9000)}`)).toBe(false);
  });
});

describe("app protocol", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "companion-renderer-"));
  writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>t</title>");

  it("maps our urls into the renderer folder", () => {
    expect(resolveAppAsset(dir, "companion://app/")).toBe(path.join(dir, "index.html"));
    expect(resolveAppAsset(dir, "companion://app/index.html")).toBe(path.join(dir, "index.html"));
    expect(resolveAppAsset(dir, "companion://app/assets/a%20b.js")).toBe(path.join(dir, "assets", "a b.js"));
  });

  it("refuses escapes and foreign hosts", () => {
    expect(resolveAppAsset(dir, "companion://app/..%2f..%2fetc%2fpasswd")).toBeNull();
    // The URL parser resolves dot segments first, so these stay inside the folder.
    expect(resolveAppAsset(dir, "companion://app/%2e%2e/secret")).toBe(path.join(dir, "secret"));
    expect(resolveAppAsset(dir, "companion://app/../../etc/passwd")).toBe(path.join(dir, "etc", "passwd"));
    expect(resolveAppAsset(dir, "companion://other/index.html")).toBeNull();
    expect(resolveAppAsset(dir, "https://app/index.html")).toBeNull();
    expect(resolveAppAsset(dir, "companion://app/%00")).toBeNull();
    expect(resolveAppAsset(dir, "companion://app/%E0%A4%A")).toBeNull();
  });

  it("serves files with the CSP and 404s the rest", async () => {
    const handler = appProtocolHandler(dir);
    const ok = await handler(new Request("companion://app/index.html"));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(ok.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(ok.headers.get("x-content-type-options")).toBe("nosniff");
    expect(ok.headers.get("x-frame-options")).toBe("DENY");
    expect(await ok.text()).toContain("<title>t</title>");
    expect((await handler(new Request("companion://app/missing.js"))).status).toBe(404);
    expect((await handler(new Request("companion://app/index.html", { method: "POST", body: "x" }))).status).toBe(404);
  });

  it("CSP allows no foreign network, no foreign script and no eval", () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    // One policy for desktop and browser mode (src/shared/csp.ts): browser mode's WebSocket needs 'self'.
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self';/);
    expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe-eval");
    const scriptSrc = CONTENT_SECURITY_POLICY.split("; ").find((d) => d.startsWith("script-src"));
    expect(scriptSrc).toBe("script-src 'self'");
    // frame-ancestors is ignored (with a console error) in the meta copy; X-Frame-Options refuses framing.
    expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe-inline");
  });
});
