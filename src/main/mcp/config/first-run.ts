// The first run: no config of the companion's own yet. The page shows the first-run view (servers
// found in other clients, "Add a server", "Try a question"); "Try a question" runs the demo server
// shipped in src/demo as a server named `demo`, for this session only: trying it writes nothing,
// so the person's config stays theirs and the first-run view stays until they add or import.
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_TIMEOUT_MS, type LocalServerConfig } from "./config";

export const DEMO_SERVER_NAME = "demo";

export interface FirstRunInfo {
  /** No config file of the companion's own exists: show the first-run view. */
  firstRun: boolean;
  /** The config in use (shown in Settings, and where "Add a server" and import write). */
  configPath: string;
}

/** A missing file is a first run; an empty or broken one is not (the person has started one). */
export async function firstRunInfo(configPath: string): Promise<FirstRunInfo> {
  try {
    await stat(configPath);
    return { firstRun: false, configPath };
  } catch (error) {
    return { firstRun: (error as NodeJS.ErrnoException).code === "ENOENT", configPath };
  }
}

/**
 * The demo server's file: src/demo/demo-server.mjs, found upwards from this module (it runs from
 * src/main/mcp in tests and from out/<app>/ when built; the packaged app ships src/demo).
 */
function demoServerPath(from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, "src", "demo", "demo-server.mjs");
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** The demo as a server config; `node` is this runtime (Electron's binary runs as Node here). */
export function demoServer(path: string | undefined = demoServerPath(), execPath: string = process.execPath): LocalServerConfig {
  if (!path) throw new Error("the demo server is not part of this installation (src/demo/demo-server.mjs is missing)");
  return {
    name: DEMO_SERVER_NAME,
    type: "local",
    enabled: true,
    timeout: DEFAULT_TIMEOUT_MS,
    callTimeout: 60_000,
    protocol: "legacy",
    command: execPath,
    args: [path],
    env: { ELECTRON_RUN_AS_NODE: "1" },
    sessionOnly: true,
  };
}
