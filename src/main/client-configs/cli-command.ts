// The command an agent's config runs to reach the companion (the hook, the connect shim):
// `toolnexus-companion` when it is on PATH, else node and this install's launcher.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { launcherPath } from "../base/package-root";

/** `toolnexus-companion` when it is on PATH (npm link, a package), else node and this install's launcher. */
export function cliCommand(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): { command: string; args: string[] } {
  const names = platform === "win32" ? ["toolnexus-companion.cmd", "toolnexus-companion.exe"] : ["toolnexus-companion"];
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      try {
        accessSync(join(dir, name), platform === "win32" ? constants.F_OK : constants.X_OK);
        return { command: "toolnexus-companion", args: [] };
      } catch {
        // not here
      }
    }
  }
  // Resolved from the install folder, not this file: bundled into out/, this file's URL is elsewhere.
  return { command: "node", args: [launcherPath()] };
}
