// The real companion in browser mode started from a config FILE (as `npm run serve --config` and
// the desktop app are), for the first-run and Servers-view end-to-end tests: harness.ts's startApp
// takes a config object, which has no file to watch, edit or find missing. Plus axe and the
// overflow check the issue-10 tests use, and a renderer build that holds these views.
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createCore } from "../../src/main/app/core";
import { startCompanionServer } from "../../src/main/app/companion-server";
import { browserPlatform } from "../../src/main/app/serve";
import type { SecretStore } from "../../src/main/secrets";
import { rendererDir, repoRoot, type App } from "./harness";

const require = createRequire(import.meta.url);
const AXE_SOURCE: string = (require("axe-core") as { source: string }).source;

/** Builds the renderer now when out/renderer is older than its sources (see rendererDir). */
export function ensureRenderer(): void {
  rendererDir();
}

/**
 * Points this worker's HOME (and XDG_CONFIG_HOME under it) at `home`: the import list reads the
 * other apps' files of this process's HOME. Returns what puts the old values back.
 */
export function useHome(home: string): () => void {
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  process.env.HOME = home;
  process.env.XDG_CONFIG_HOME = join(home, ".config");
  return () => {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  };
}

export async function startFromFile(configPath: string, options: { historyPath?: string; secrets?: SecretStore } = {}): Promise<App> {
  const log: string[] = [];
  const core = await createCore({ configPath, platform: browserPlatform, log: (l) => log.push(l), connectInBackground: true, ...options });
  const server = await startCompanionServer(core, { port: 0, staticDir: rendererDir(), log: (l) => log.push(l) });
  return { core, server, pageUrl: server.pageUrl(), log, close: () => core.close() };
}

export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`);
  });
}

export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
}

export const DESKTOP = { width: 1280, height: 800 };
export const POPUP = { width: 420, height: 640 };
export const SHOTS = join(repoRoot, "test-output", "screenshots");

/**
 * Screenshots of what is on screen at 1280×800 and 420×640, light and dark; each checked for
 * horizontal overflow and by axe (zero violations). Leaves the page at 1280×800, light.
 */
export async function shootAll(page: Page, name: string, check: (message: string, overflow: number, violations: string[]) => void): Promise<void> {
  for (const size of [DESKTOP, POPUP]) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SHOTS, `${name}-${size.width}x${size.height}-${scheme}.png`) });
      check(`${name} at ${size.width} px, ${scheme}`, await horizontalOverflow(page), await axeViolations(page));
    }
  }
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ colorScheme: "light" });
}
