// The companion's state folder: what must survive a restart but is no config (process-group
// registries, the gateway token when there is no system keychain).
import { homedir } from "node:os";
import { join } from "node:path";

/** TOOLNEXUS_STATE_DIR, else $XDG_STATE_HOME/toolnexus-companion, else ~/.local/state/toolnexus-companion. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOOLNEXUS_STATE_DIR) return env.TOOLNEXUS_STATE_DIR;
  const base = env.XDG_STATE_HOME || join(homedir(), ".local", "state");
  return join(base, "toolnexus-companion");
}
