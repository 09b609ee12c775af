// The companion's own MCP config file: where it lives, reading it at start, and writing it
// atomically. A missing file is an empty config (first run); a broken one is an error the person
// sees in the servers view, and the app still starts. Comments and trailing commas are fine.
// The file names commands the companion runs, so a file (or folder) other users can change is
// refused like a broken one (base/file-trust.ts): no server of it starts.
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { describeFsError } from "../../base/fs-errors";
import { trustProblem } from "../../base/file-trust";
import type { SafeWriteOptions } from "../../base/safe-write";
import { parseConfigText } from "../../base/config-text";

export interface ConfigFileResult {
  config: unknown;
  /** Why the file could not be used; the app runs with no servers. */
  error?: string;
  /** One line for the log. */
  note?: string;
}

/** `$XDG_CONFIG_HOME/toolnexus-companion/mcp.json` (or `~/.config/…`), the same on every platform. */
export function defaultConfigPath(env: Record<string, string | undefined> = process.env, home: string = homedir()): string {
  const base = env.XDG_CONFIG_HOME || join(home, ".config");
  return join(base, "toolnexus-companion", "mcp.json");
}

/** The config in use: an explicit `--config`, else `TOOLNEXUS_CONFIG`, else the default path. */
export function resolveConfigPath(flag: string | undefined, env: Record<string, string | undefined> = process.env, home?: string): string {
  return flag || env.TOOLNEXUS_CONFIG || defaultConfigPath(env, home);
}

export async function readConfigFile(path: string): Promise<ConfigFileResult> {
  let text: string;
  try {
    const untrusted = trustProblem(path);
    if (untrusted) return { config: {}, error: `The MCP config is not used, so none of its servers run: ${untrusted}` };
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      return { config: {}, note: `config: ${path} does not exist; starting with no servers.` };
    }
    return { config: {}, error: `Could not read the MCP config ${path}: ${describeFsError(error, path) ?? (error as Error).message}` };
  }
  if (text.trim() === "") return { config: {}, note: `config: ${path} is empty; starting with no servers.` };
  try {
    return { config: parseConfigText(text, `The MCP config ${path}`) };
  } catch (error) {
    return { config: {}, error: (error as Error).message };
  }
}

/**
 * How the companion's config is written (base/safe-write.ts): always 0600, whatever mode it had —
 * servers carry header and env values, and imported ones tokens written inline in another
 * client's config; its folder, when created, 0700.
 */
export const CONFIG_WRITE_OPTIONS: SafeWriteOptions = { mode: 0o600, dirMode: 0o700 };
