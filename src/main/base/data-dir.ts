// The companion's data folder: the platform's place for an app's data, so the desktop app,
// browser mode and the CLI all find history and rules without being told.
import os from "node:os";
import path from "node:path";

export function dataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  if (platform === "darwin") return path.join(home, "Library", "Application Support", "Toolnexus Companion");
  if (platform === "win32") return path.join(env.APPDATA || path.join(home, "AppData", "Roaming"), "Toolnexus Companion");
  return path.join(env.XDG_DATA_HOME || path.join(home, ".local", "share"), "toolnexus-companion");
}
