// Browser mode in-process for the end-to-end tests and the latency bench: the real core with real
// MCP servers, the real listener serving the built renderer, and Debian's Chromium.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { createCore, type Core } from "../../src/main/core";
import { startCompanionServer, type CompanionServer } from "../../src/main/http/companion-server";
import { browserPlatform } from "../../src/main/serve";

const require = createRequire(import.meta.url);
export const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
export const CANCEL_FIXTURE = join(repoRoot, "test", "fixtures", "cancel-elicit.mjs");

/** The built renderer; TNC_RENDERER_DIR points elsewhere (a private build while developing). */
export function rendererDir(): string {
  const dir = process.env.TNC_RENDERER_DIR ?? join(repoRoot, "out", "renderer");
  if (!existsSync(join(dir, "index.html"))) {
    // npm test builds it first (scripts/test.sh); a lone run of this file builds it here.
    execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { cwd: repoRoot, stdio: "inherit", timeout: 180_000 });
  }
  return dir;
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
