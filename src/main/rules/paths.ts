// Where lasting rules live: in the data folder beside the history file (base/data-dir.ts), so the
// desktop app, browser mode and the CLI find the same file. TOOLNEXUS_RULES_FILE overrides it
// (tests, portable use); moving the history file elsewhere does not move the rules.
import path from "node:path";
import { dataDir } from "../base/data-dir";

export const RULES_FILE = "rules.json";

export function defaultRulesPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TOOLNEXUS_RULES_FILE) return path.resolve(env.TOOLNEXUS_RULES_FILE);
  return path.join(dataDir(env, platform), RULES_FILE);
}
