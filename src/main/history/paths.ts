// Where history lives: the platform's data folder, so the desktop app, browser mode and the CLI
// all find the same file without being told. TOOLNEXUS_HISTORY_DB overrides it (tests, portable use).
import os from "node:os";
import path from "node:path";

export const HISTORY_FILE = "history.sqlite";

export function defaultHistoryPath(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (env.TOOLNEXUS_HISTORY_DB) return path.resolve(env.TOOLNEXUS_HISTORY_DB);
  if (platform === "darwin") return path.join(home, "Library", "Application Support", "Toolnexus Companion", HISTORY_FILE);
  if (platform === "win32") {
    return path.join(env.APPDATA || path.join(home, "AppData", "Roaming"), "Toolnexus Companion", HISTORY_FILE);
  }
  return path.join(env.XDG_DATA_HOME || path.join(home, ".local", "share"), "toolnexus-companion", HISTORY_FILE);
}
