// Where history lives: the data folder (base/data-dir.ts). TOOLNEXUS_HISTORY_DB overrides it
// (tests, portable use).
import os from "node:os";
import path from "node:path";
import { dataDir } from "../base/data-dir";

const HISTORY_FILE = "history.sqlite";

export function defaultHistoryPath(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (env.TOOLNEXUS_HISTORY_DB) return path.resolve(env.TOOLNEXUS_HISTORY_DB);
  return path.join(dataDir(env, platform, home), HISTORY_FILE);
}
