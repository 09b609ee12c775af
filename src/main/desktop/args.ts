// The desktop app's command line: `--config <path>` (or `--config=<path>`), `--port <n>` for the
// loopback listener (gateway and browser page; 0 picks a free one) and `--hidden`.
// Electron's argv carries Chromium switches and, unpackaged, the app path too; we scan for ours.
import os from "node:os";
import path from "node:path";
import { resolveConfigPath } from "../mcp/config/file";

export interface DesktopArgs {
  configPath: string;
  /** Started at login: stay in the tray. */
  hidden: boolean;
  /** Undefined: the listener's default (7315). */
  port?: number;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got ${JSON.stringify(value)}`);
  return port;
}

export function parseDesktopArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): DesktopArgs {
  let configPath: string | undefined;
  let hidden = false;
  let port: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--config" && i + 1 < argv.length) configPath = argv[++i];
    else if (arg.startsWith("--config=")) configPath = arg.slice("--config=".length);
    else if (arg === "--hidden") hidden = true;
    else if (arg === "--port" && i + 1 < argv.length) port = parsePort(argv[++i]);
    else if (arg.startsWith("--port=")) port = parsePort(arg.slice("--port=".length));
  }
  return { configPath: path.resolve(resolveConfigPath(configPath, env, home)), hidden, ...(port !== undefined ? { port } : {}) };
}
