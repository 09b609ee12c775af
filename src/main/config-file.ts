// The companion's own MCP config file: where it lives, reading it at start, and writing it
// atomically. A missing file is an empty config (first run); a broken one is an error the person
// sees in the servers view, and the app still starts. Comments and trailing commas are fine.
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { parseConfigText } from "./mcp/config";

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
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      return { config: {}, note: `config: ${path} does not exist; starting with no servers.` };
    }
    return { config: {}, error: `Could not read the MCP config ${path}: ${(error as Error).message}` };
  }
  if (text.trim() === "") return { config: {}, note: `config: ${path} is empty; starting with no servers.` };
  try {
    return { config: parseConfigText(text, `The MCP config ${path}`) };
  } catch (error) {
    return { config: {}, error: (error as Error).message };
  }
}

/**
 * Replaces `path` with `text` so that a reader (the app, an editor, a crash) sees the old file or
 * the new one, never half of it: a temporary file beside it, then a rename. A new file is private
 * (0600) because imported servers may carry tokens written inline in another client's config; an
 * existing file keeps its mode.
 */
export async function writeConfigFileAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  let mode = 0o600;
  try {
    mode = (await stat(path)).mode & 0o777;
  } catch {
    // a new file
  }
  const temp = join(dirname(path), `.${randomBytes(6).toString("hex")}.${process.pid}.tmp`);
  try {
    await writeFile(temp, text, { mode, flag: "wx" });
    await chmod(temp, mode);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}
