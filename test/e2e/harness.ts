// Browser mode in-process for the end-to-end tests and the latency bench: the real core with real
// MCP servers, the real listener serving the built renderer, and Debian's Chromium. useBrowser()
// is an end-to-end file's lifecycle (the app, Chromium, pages, what is closed when); shootAll()
// its screenshots with their overflow and axe checks.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { createCore, type Core, type CoreOptions } from "../../src/main/app/core";
import { startCompanionServer, type CompanionServer } from "../../src/main/app/companion-server";
import { browserPlatform } from "../../src/main/app/serve";

const require = createRequire(import.meta.url);
export const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
export const CANCEL_FIXTURE = join(repoRoot, "test", "fixtures", "cancel-elicit.mjs");

/** Newest modification time of the files under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The built renderer: TNC_RENDERER_DIR, else out/renderer when it was built after the last edit of
 * the page's sources (npm test builds it first, scripts/test.sh), else a private build for this
 * worker. A stale out/renderer would test old code or time out on a view it lacks; rebuilding
 * out/renderer itself would pull it from under tests running in other workers.
 */
export function rendererDir(): string {
  if (process.env.TNC_RENDERER_DIR) return process.env.TNC_RENDERER_DIR;
  const shared = join(repoRoot, "out", "renderer");
  const index = join(shared, "index.html");
  const sources = Math.max(...["renderer", "shared", "forms"].map((d) => newestMtime(join(repoRoot, "src", d))));
  if (existsSync(index) && statSync(index).mtimeMs > sources) return shared;
  const own = mkdtempSync(join(tmpdir(), "tnc-renderer-"));
  execFileSync("npx", ["vite", "build", "--logLevel", "warn", "--outDir", own, "--emptyOutDir"], { cwd: repoRoot, stdio: "inherit", timeout: 180_000 });
  process.env.TNC_RENDERER_DIR = own;
  return own;
}

export interface App {
  core: Core;
  server: CompanionServer;
  pageUrl: string;
  log: string[];
  close(): Promise<void>;
}

/** What else createCore is given (a history or rules file, a config file instead of `config`, a keychain). */
export type AppCoreOptions = Omit<CoreOptions, "config" | "platform" | "log" | "inbox">;

/** The browser-mode app as serve.ts builds it: the core on `config` (or options.core.configPath) and the listener serving the built page. */
export async function startApp(config: unknown, options: { inbox?: { maxPendingPerSource?: number }; port?: number; core?: AppCoreOptions } = {}): Promise<App> {
  const log: string[] = [];
  const core = await createCore({ config, platform: browserPlatform, log: (l) => log.push(l), ...(options.inbox ? { inbox: options.inbox } : {}), ...options.core });
  const server = await startCompanionServer(core, { port: options.port ?? 0, staticDir: rendererDir(), log: (l) => log.push(l) });
  return { core, server, pageUrl: server.pageUrl(), log, close: () => core.close() };
}

/** Answers "cancelled" to whatever is still pending, so a test leaves nothing for the next. */
export function cancelPending(app: App): void {
  for (const entry of app.core.internals.inbox.list()) app.core.internals.inbox.answer(entry.request.id, { ok: false, reason: "cancelled" });
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-quic",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

export const everythingConfig = () => ({
  mcpServers: {
    everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
    withdraws: { command: process.execPath, args: [CANCEL_FIXTURE] },
  },
});

export type Size = { width: number; height: number };
export const DESKTOP: Size = { width: 1280, height: 800 };
export const POPUP: Size = { width: 420, height: 640 };
export const SHOTS = join(repoRoot, "test-output", "screenshots");

export interface OpenOptions {
  /** A new context's viewport (Playwright's 1280×720 when left out) and colour scheme. */
  viewport?: Size;
  colorScheme?: "light" | "dark";
  /** Opens the page in this context instead of a new one. */
  context?: BrowserContext;
  /** The file's app's page when left out. */
  url?: string;
  /** What says the page is up once loaded: the Main navigation shown, unless given (false: nothing). */
  ready?: false | ((page: Page) => Promise<unknown>);
}

export interface BrowserRun {
  /** The app the file started (options.app); it throws for a file that starts its own. */
  readonly app: App;
  readonly browser: Browser;
  /** A context with the file's UI timeout, closed after the test (or after the file: closeContexts). */
  context(options?: Pick<OpenOptions, "viewport" | "colorScheme">): Promise<BrowserContext>;
  /** A page at options.url (else the app's page), up by options.ready; its uncaught errors are in errors(page). */
  open(options?: OpenOptions): Promise<Page>;
  errors(page: Page): string[];
}

/**
 * An end-to-end file's lifecycle, registered as its hooks. Before all: the screenshots folder, the
 * built page, the file's app (options.app, which may set up what it needs first), then Chromium.
 * After each test: its contexts closed (unless closeContexts is "after-all"), then options.afterEach.
 * After all: the contexts left, Chromium, the app, then options.afterAll.
 */
export function useBrowser(options: {
  uiTimeout: number;
  app?: () => Promise<App>;
  closeContexts?: "after-each" | "after-all";
  afterEach?: () => void | Promise<void>;
  afterAll?: () => void | Promise<void>;
  setupTimeout?: number;
}): BrowserRun {
  let app: App | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const pageErrors = new WeakMap<Page, string[]>();
  const closeContexts = async () => {
    while (contexts.length) await contexts.pop()!.close().catch(() => {});
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    rendererDir();
    if (options.app) app = await options.app();
    browser = await launchChromium();
  }, options.setupTimeout ?? 240_000);

  afterEach(async () => {
    if (options.closeContexts !== "after-all") await closeContexts();
    await options.afterEach?.();
  });

  afterAll(async () => {
    await closeContexts();
    await browser?.close();
    await app?.close();
    await options.afterAll?.();
  });

  const run: BrowserRun = {
    get app() {
      if (!app) throw new Error("useBrowser: this file starts no app of its own (options.app)");
      return app;
    },
    get browser() {
      if (!browser) throw new Error("useBrowser: Chromium is not running (before beforeAll, or after afterAll)");
      return browser;
    },
    async context(contextOptions = {}) {
      const context = await run.browser.newContext({ ...(contextOptions.viewport ? { viewport: contextOptions.viewport } : {}), ...(contextOptions.colorScheme ? { colorScheme: contextOptions.colorScheme } : {}) });
      context.setDefaultTimeout(options.uiTimeout);
      contexts.push(context);
      return context;
    },
    async open(openOptions = {}) {
      const context = openOptions.context ?? (await run.context(openOptions));
      const page = await context.newPage();
      const errors: string[] = [];
      pageErrors.set(page, errors);
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(openOptions.url ?? run.app.pageUrl);
      if (openOptions.ready === undefined) await page.getByRole("navigation", { name: "Main" }).waitFor();
      else if (openOptions.ready) await openOptions.ready(page);
      return page;
    },
    errors: (page) => pageErrors.get(page) ?? [],
  };
  return run;
}

const AXE_SOURCE: string = (require("axe-core") as { source: string }).source;

export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`);
  });
}

/** How far the page scrolls sideways: its scroll width past the window's inner width. */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
}

export type ShotCheck = (message: string, overflow: number, violations: string[]) => void;

/** No sideways scroll, zero axe violations. */
export const expectClean: ShotCheck = (message, overflow, violations) => {
  expect(overflow, message).toBeLessThanOrEqual(0);
  expect(violations, message).toEqual([]);
};

/**
 * Screenshots `<name>-<w>x<h>-<scheme>.png` of what is on screen at 1280×800 and 420×640, light and
 * dark, each checked by options.check (expectClean unless given). The overflow is the stricter of
 * the two measures these tests used: past the window's inner width, and past the root element's
 * client width. options.show: a selector scrolled to the middle of the view before each shot.
 * Leaves the page at 1280×800, light.
 */
export async function shootAll(page: Page, name: string, options: { check?: ShotCheck; show?: string } = {}): Promise<void> {
  const check = options.check ?? expectClean;
  for (const size of [DESKTOP, POPUP]) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      if (options.show) await page.evaluate((selector) => document.querySelector(selector)?.scrollIntoView({ block: "center" }), options.show);
      await page.screenshot({ path: join(SHOTS, `${name}-${size.width}x${size.height}-${scheme}.png`) });
      const rootOverflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      check(`${name} at ${size.width} px, ${scheme}`, Math.max(await horizontalOverflow(page), rootOverflow), await axeViolations(page));
    }
  }
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ colorScheme: "light" });
}
