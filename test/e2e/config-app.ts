// The real companion in browser mode started from a config FILE (as `npm run serve --config` and
// the desktop app are), for the first-run and Servers-view end-to-end tests: a config object has
// no file to watch, edit or find missing.
import { join } from "node:path";
import { startApp, type App, type AppCoreOptions } from "./harness";

/**
 * Points this worker's HOME (and XDG_CONFIG_HOME under it) at `home`: the import list reads the
 * other apps' files of this process's HOME. Returns what puts the old values back.
 */
export function useHome(home: string): () => void {
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  process.env.HOME = home;
  process.env.XDG_CONFIG_HOME = join(home, ".config");
  return () => {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  };
}

/** The app on the config file at configPath, its servers connecting in the background (as the apps start). */
export function startFromFile(configPath: string, options: Pick<AppCoreOptions, "historyPath" | "secrets"> = {}): Promise<App> {
  return startApp(undefined, { core: { configPath, connectInBackground: true, ...options } });
}
