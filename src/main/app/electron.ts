// The Electron composition root: read the command line, open the keychain, build the core, start
// the loopback listener (gateway for local agents, same page for a browser) and the desktop shell.
// Wiring only; every behaviour lives in the modules it names.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createCore } from "./core";
import { defaultDevicesDir } from "../devices/paths";
import { parseDesktopArgs } from "../desktop/args";
import { runDesktopApp } from "../desktop/app";
import { utilityHelperLauncher } from "../desktop/keychain-helper";
import { desktopHistoryNative } from "../desktop/natives";
import { startCompanionServer } from "./companion-server";
import { DEFAULT_PORT } from "../http/listener";
import { claimPort, type PortClaim } from "../http/port-claim";
import { installOrphanGuard } from "../process/orphan-guard";
import { openSecretStore, SecretScrubber } from "../secrets";
import { scrubbedLog } from "./egress";
import { defaultHistoryPath } from "../history";
import { defaultRulesPath } from "../rules";
import { defaultReachPath } from "../reach/settings-file";
import { systemIdleSeconds } from "../desktop/idle";
import { errorMessage } from "../../shared/unknown-value";

// out/main/index.js → the app root holds out/renderer, out/preload and out/assets.
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = parseDesktopArgs(process.argv.slice(1));
// The process's secret registry: the core registers into it, and every line, the core's and the
// listener's and the desktop shell's and this file's, is scrubbed with it.
const scrubber = new SecretScrubber();
const log = scrubbedLog((line: string) => console.log(line), scrubber);

void runDesktopApp({
  paths: {
    rendererDir: path.join(outDir, "renderer"),
    preloadPath: path.join(outDir, "preload", "index.cjs"),
    assetsDir: path.join(outDir, "assets"),
  },
  startHidden: args.hidden,
  log,
  async createCore(platform) {
    // The gateway's port before any MCP server starts, so a taken one is said (with its holder)
    // first. Another companion (say `npm run serve`) may hold it; the desktop still works.
    let claim: PortClaim | undefined;
    try {
      claim = await claimPort(args.port ?? DEFAULT_PORT);
    } catch (error) {
      log(`gateway: not started (${errorMessage(error)})`);
    }
    // Before any server starts: end what a crashed predecessor left, and start the watchdog that
    // ends our servers if this process dies without closing them (process/orphan-guard.ts).
    // The keychain helper (a utility process, no server) starts meanwhile.
    const [, secrets] = await Promise.all([installOrphanGuard({ log }), openSecretStore({ launch: utilityHelperLauncher(path.join(outDir, "main", "keychain-helper.cjs")) })]);
    // The tray and window come up at once; servers show "connecting" until they are ready.
    const core = await createCore({ configPath: args.configPath, platform, log, scrubber, secrets, connectInBackground: true, historyPath: defaultHistoryPath(), historyNative: desktopHistoryNative(path.dirname(outDir)), rulesPath: defaultRulesPath(), reach: { path: defaultReachPath(), idleSeconds: systemIdleSeconds }, devices: { dir: defaultDevicesDir(), staticDir: path.join(outDir, "renderer") } });
    if (claim) {
      try {
        const server = await startCompanionServer(core, { staticDir: path.join(outDir, "renderer"), log, claim });
        log(`gateway: agents reach the companion at ${server.url}/mcp`);
      } catch (error) {
        await claim.release();
        log(`gateway: not started (${errorMessage(error)})`);
      }
    }
    return core;
  },
}).catch((error: unknown) => {
  console.error(`companion: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
