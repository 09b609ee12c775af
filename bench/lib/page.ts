// Browser-mode helpers for the page benches: the real core and listener in this process (with
// the options a bench needs, e.g. a history file), and polling Chromium without eval.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createCore, type Core } from "../../src/main/app/core";
import { startCompanionServer, type CompanionServer } from "../../src/main/app/companion-server";
import { browserPlatform } from "../../src/main/app/serve";
import { rendererDir, repoRoot } from "../../test/e2e/harness";

export { launchChromium } from "../../test/e2e/harness";

export interface BenchApp {
  core: Core;
  server: CompanionServer;
  pageUrl: string;
  close(): Promise<void>;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(file) : statSync(file).mtimeMs);
  }
  return newest;
}

/**
 * The renderer to measure: TNC_RENDERER_DIR, else out/renderer when it is newer than the sources,
 * else a private build in out/bench/renderer (a stale out/renderer would measure old code, or time
 * out on a view it lacks; rebuilding out/renderer itself would pull it from under others' tests).
 */
function benchRendererDir(): string {
  if (process.env.TNC_RENDERER_DIR) return rendererDir();
  const sources = Math.max(newestMtime(join(repoRoot, "src", "renderer")), newestMtime(join(repoRoot, "src", "shared")));
  const fresh = (dir: string) => existsSync(join(dir, "index.html")) && statSync(join(dir, "index.html")).mtimeMs > sources;
  const shared = join(repoRoot, "out", "renderer");
  if (fresh(shared)) return shared;
  const own = join(repoRoot, "out", "bench", "renderer");
  if (!fresh(own)) {
    execFileSync("npx", ["vite", "build", "--logLevel", "warn", "--outDir", own, "--emptyOutDir"], { cwd: repoRoot, stdio: "inherit", timeout: 180_000 });
  }
  return own;
}

/** Browser mode in-process, no MCP servers; `historyPath` turns history on against that file. */
export async function startBenchApp(options: { historyPath?: string } = {}): Promise<BenchApp> {
  const log = () => {};
  const core = await createCore({ config: { mcpServers: {} }, platform: browserPlatform, log, ...options });
  const server = await startCompanionServer(core, { port: 0, staticDir: benchRendererDir(), log });
  return { core, server, pageUrl: server.pageUrl(), close: () => core.close() };
}

/**
 * Waits until `expression` is truthy in the page. Not page.waitForFunction: Playwright evaluates
 * its predicate with eval inside the page, which the page's CSP (no 'unsafe-eval') refuses. The
 * benches stamp times in the page's own clock, so polling from here does not change the figures.
 */
export async function pollUntil(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Epoch milliseconds with sub-millisecond resolution; comparable with the page's own. */
export const epochNow = () => performance.timeOrigin + performance.now();
