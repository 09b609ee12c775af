// Browser mode: `npm run serve -- --config <path> [--port N]` runs the core in plain Node and
// serves the renderer on the loopback listener. For headless boxes and SSH sessions, and what
// the end-to-end tests drive. npm runs the bundle of this file (scripts/build-serve.mjs →
// out/serve/serve.js) with `exec node`, so no wrapper sits between the person and the companion;
// npm stays the parent, and the companion stops in order when its parent goes away.
// `toolnexus-companion start` runs the same runServe from source, in the launcher's own process
// (bin/toolnexus-companion registers tsx in-process, so no wrapper process there either).
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createCore } from "./core";
import { defaultReachPath } from "../reach/settings-file";
import { type Platform } from "../api/settings-state";
import { startCompanionServer } from "./companion-server";
import { DEFAULT_PORT } from "../http/listener";
import { claimPort } from "../http/port-claim";
import { openSecretStore, SecretScrubber } from "../secrets";
import { scrubbedLog } from "./egress";
import { START_USAGE } from "../cli/start";
import { installOrphanGuard } from "../process/orphan-guard";
import { watchParent } from "../process/parent-watch";
import { resolveConfigPath } from "../mcp/config/file";
import { packageRoot } from "../base/package-root";
import { defaultHistoryPath } from "../history";
import { defaultRulesPath } from "../rules";
import { defaultDevicesDir } from "../devices/paths";

/** In a browser the page opens URLs itself, and there is no login item to manage. */
export const browserPlatform: Platform = {
  openExternal: () => null,
  getStartAtLogin: () => false,
  setStartAtLogin: () => {
    throw new Error("Start at login is not available in browser mode; it is a setting of the desktop app.");
  },
};

function parse(argv: string[]): { config: string; port: number } {
  const { values } = parseArgs({
    args: argv,
    options: { config: { type: "string", short: "c" }, port: { type: "string", short: "p" }, help: { type: "boolean", short: "h" } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(START_USAGE);
    process.exit(0);
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not "${values.port}".`);
  return { config: resolveConfigPath(values.config), port };
}

/** The process's secret registry: the core registers into it, and browser mode's own lines are scrubbed with it. */
const scrubber = new SecretScrubber();
/** Every line of browser mode: no known secret, no control character from a server's output. */
const log = scrubbedLog((line: string) => process.stderr.write(`${line}\n`), scrubber);

async function main(argv: string[]): Promise<void> {
  const args = parse(argv);
  log(`config: ${args.config}`);
  // The port first: a taken one ends the start here, before any MCP server (npx downloads and all)
  // has started only to be stopped again. The listener takes this socket over below.
  const claim = await claimPort(args.port);
  // Before any server starts: end what a crashed predecessor left, and make sure our own servers
  // die with us however we die.
  // The keychain helper starts meanwhile: it is no server, and it exits when our pipe closes.
  // (A failure from here on exits the process, which gives the claimed port back.)
  const [guard, secrets] = await Promise.all([installOrphanGuard({ log }), openSecretStore()]);
  // From the install folder, so it holds whether this runs from src/main/app or from its bundle.
  const staticDir = join(installFolder(), "out", "renderer");
  const core = await createCore({ configPath: args.config, platform: browserPlatform, log, scrubber, secrets, connectInBackground: true, historyPath: defaultHistoryPath(), rulesPath: defaultRulesPath(), reach: { path: defaultReachPath() }, devices: { dir: defaultDevicesDir(), staticDir } });
  // Handlers before the link is printed: whoever reads it may signal at once, and a SIGTERM
  // without a handler would kill us without closing the servers.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      log("Stopping anyway.");
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: cancelling pending questions and stopping servers…`);
    core.close().then(
      () => {
        guard.close();
        process.exit(0);
      },
      (error: Error) => {
        log(`close failed: ${error.message}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  // npm (or any wrapper) killed, even with SIGKILL: we were re-parented; stop as on SIGTERM.
  watchParent(() => stop("parent exited"), 500);
  // Servers connect while the page is already up; say when each one is ready. A failure is said
  // once, by whoever acts on it (mcp/supervisor.ts: the restart it schedules), not here again.
  const connected = new Set<string>();
  core.onServerStatus((s) => {
    if (s.state !== "connected") return void connected.delete(s.name);
    if (connected.has(s.name)) return;
    connected.add(s.name);
    log(`server ${s.name}: connected (${s.toolCount} tools)`);
  });
  let server;
  try {
    server = await startCompanionServer(core, { claim, staticDir, log });
  } catch (error) {
    await core.close();
    await claim.release();
    guard.close();
    throw error;
  }
  for (const status of core.servers()) {
    if (status.state === "disabled") log(`server ${status.name}: disabled`);
  }
  process.stdout.write(`Toolnexus Companion is running: ${server.pageUrl()}\n`);
  process.stdout.write(`Agents connect to ${server.url}/mcp with the same token (Authorization: Bearer …).\n`);
}

function isMainModule(): boolean {
  if (!process.argv[1]) return false;
  try {
    // argv[1] is not resolved through symlinks; import.meta.url is.
    return realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

/** Starts the companion; 0 once it runs (it keeps running until a signal), 1 if it could not start. */
export async function runServe(argv: string[]): Promise<number> {
  try {
    await main(argv);
    return 0;
  } catch (error) {
    // A mistyped option is a usage error (2), as for every command of the CLI.
    if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      log(`toolnexus-companion start: ${(error as Error).message}`);
      process.stderr.write(`\n${START_USAGE}`);
      return 2;
    }
    log(`Toolnexus Companion could not start: ${(error as Error).message}`);
    return 1;
  }
}

// Only when run as a program, so tests can import browserPlatform.
if (isMainModule()) {
  void runServe(process.argv.slice(2)).then((code) => {
    if (code !== 0) process.exit(code);
  });
}

function installFolder(): string {
  const root = packageRoot();
  if (!root) throw new Error("the companion cannot find its install folder (no package.json of toolnexus-companion above this file)");
  return root;
}
