// Browser mode in-process for the end-to-end tests and the latency bench: the real core with real
// MCP servers, the real listener serving the built renderer, and Debian's Chromium.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { createCore, type Core } from "../../src/main/app/core";
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

export async function startApp(config: unknown, options: { inbox?: { maxPendingPerSource?: number }; port?: number } = {}): Promise<App> {
  const log: string[] = [];
  const core = await createCore({ config, platform: browserPlatform, log: (l) => log.push(l), ...(options.inbox ? { inbox: options.inbox } : {}) });
  const server = await startCompanionServer(core, { port: options.port ?? 0, staticDir: rendererDir(), log: (l) => log.push(l) });
  return { core, server, pageUrl: server.pageUrl(), log, close: () => core.close() };
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
