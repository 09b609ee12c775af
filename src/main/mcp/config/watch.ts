// Watching the companion's config file and telling what an edit changed. Editors save by writing a
// temporary file and renaming it over the old one, which ends a watch on the file itself: the
// folder is watched instead, events for our file name are debounced into one read. Each read goes
// through readConfigFile, which refuses a file (or folder) other users can change, so a config
// planted in such a folder starts nothing; the watch says so once, when it begins.
import { mkdirSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import { trustProblem } from "../../base/file-trust";
import type { ServerConfig } from "./config";

export interface ConfigWatch {
  /** Runs a pending (debounced) change now, if any. */
  flush(): Promise<void>;
  close(): void;
}

export interface WatchOptions {
  debounceMs: number;
  onChange: () => void;
  log?: (line: string) => void;
}

export function watchConfig(path: string, options: WatchOptions): ConfigWatch {
  const folder = dirname(path);
  const name = basename(path);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watcher: FSWatcher | undefined;
  const fire = () => {
    timer = undefined;
    options.onChange();
  };
  try {
    // On a first run the folder may not exist yet; the file an import or "Add a server" writes
    // lands there, and must be seen.
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const untrusted = trustProblem(path);
    if (untrusted) options.log?.(`config: ${untrusted}; no server of it will run until that is fixed.`);
    watcher = watch(folder, { persistent: false }, (_event, file) => {
      // Some platforms give no file name; then any change in the folder may be ours.
      if (file !== null && file !== undefined && String(file) !== name) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(fire, options.debounceMs);
    });
    watcher.on("error", (error) => options.log?.(`config: watching ${folder} failed (${error.message}); edits apply after a restart.`));
  } catch (error) {
    options.log?.(`config: cannot watch ${folder} (${(error as Error).message}); edits apply after a restart.`);
  }
  return {
    async flush() {
      if (!timer) return;
      clearTimeout(timer);
      fire();
    },
    close() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      watcher?.close();
    },
  };
}

export interface ServerDiff {
  added: ServerConfig[];
  removed: string[];
  /** Servers whose entry differs in anything that reaches the connection (new config given). */
  changed: ServerConfig[];
  unchanged: string[];
}

/** Which servers an edit added, removed or changed, by name; the rest are left running. */
export function diffServers(before: ServerConfig[], after: ServerConfig[]): ServerDiff {
  const old = new Map(before.map((s) => [s.name, s]));
  const diff: ServerDiff = { added: [], removed: [], changed: [], unchanged: [] };
  for (const server of after) {
    const previous = old.get(server.name);
    if (!previous) diff.added.push(server);
    else if (fingerprint(previous) !== fingerprint(server)) diff.changed.push(server);
    else diff.unchanged.push(server.name);
  }
  const names = new Set(after.map((s) => s.name));
  for (const server of before) if (!names.has(server.name)) diff.removed.push(server.name);
  return diff;
}

/** A server's config as one string, key order ignored (a reformatted file changes nothing). */
function fingerprint(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
