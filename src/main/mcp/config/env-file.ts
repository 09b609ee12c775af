// A server's `envFile`: KEY=VALUE lines as VS Code and Cursor read them, refused when too big or
// when others can change the file (its variables reach the server's process).
import { readFileSync, statSync } from "node:fs";
import { trustProblem } from "../../base/file-trust";

/** An `envFile` is a handful of KEY=VALUE lines; anything this big is not one. */
const MAX_ENV_FILE_BYTES = 1024 * 1024;

/** KEY=VALUE lines as VS Code and Cursor read an `envFile`: `#` comments, optional `export`, quotes. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2];
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, "\n").replace(/\\r/g, "\r").replace(/\\(["\\])/g, "$1");
    } else {
      value = value.replace(/\s+#.*$/, "").trim();
    }
    out[m[1]] = value;
  }
  return out;
}

/** The file at `path` as an env map; throws, naming the file, when it is missing, too big or untrusted. */
export function readEnvFile(path: string): Record<string, string> {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new Error(`envFile "${path}" cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (size > MAX_ENV_FILE_BYTES) throw new Error(`envFile "${path}" is ${size} bytes; an env file over ${MAX_ENV_FILE_BYTES} bytes is refused`);
  // Its variables reach a server's process (LD_PRELOAD, PATH): one others can change is refused.
  const untrusted = trustProblem(path);
  if (untrusted) throw new Error(`envFile "${path}" is refused: ${untrusted}`);
  return parseEnvFile(readFileSync(path, "utf8"));
}
