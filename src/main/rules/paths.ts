// Where lasting rules live: next to the history file in the app's data folder, so the desktop app,
// browser mode and the CLI find the same file. TOOLNEXUS_RULES_FILE overrides it (tests, portable use).
import path from "node:path";
import { defaultHistoryPath } from "../history/paths";

export const RULES_FILE = "rules.json";

export function defaultRulesPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TOOLNEXUS_RULES_FILE) return path.resolve(env.TOOLNEXUS_RULES_FILE);
  // Without the history override, so moving the history file elsewhere does not move the rules.
  const { TOOLNEXUS_HISTORY_DB: _ignored, ...rest } = env;
  return path.join(path.dirname(defaultHistoryPath(rest, platform)), RULES_FILE);
}
