// Reads the MCP config file at start. A missing file is an empty config (first run); a broken
// one is an error the person sees in the servers view, and the app still starts.
import { readFile } from "node:fs/promises";
import { parseConfigText } from "./mcp/config";

export interface ConfigFileResult {
  config: unknown;
  /** Why the file could not be used; the app runs with no servers. */
  error?: string;
  /** One line for the log. */
  note?: string;
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
