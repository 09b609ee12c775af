// Changing one server in the companion's own config (add, edit, enable, disable, remove) the way a
// careful person would by hand: the text is edited in place (jsonc-parser), so comments, layout,
// unknown keys and the other servers stay as they were; the result is checked before it is
// written through the one safe writer (base/safe-write.ts), so the watching app never reads half a
// file and concurrent edits each keep theirs.
import { applyEdits, format, modify, type FormattingOptions } from "jsonc-parser";
import { editFileSafe } from "../../base/safe-write";
import { CONFIG_WRITE_OPTIONS } from "./file";
import { parseConfig, rawServerMap, serverMapPath } from "./parse";
import { McpConfigError, parseConfigText } from "../../base/config-text";

const FORMAT: FormattingOptions = { insertSpaces: true, tabSize: 2, eol: "\n" };

/** What the CLI and the Servers view can say about a server; other keys of an entry are kept. */
export interface ServerFields {
  command?: string;
  args?: string[];
  url?: string;
  env?: Record<string, string>;
  headers?: Record<string, string>;
  /** A local server's working folder; "" removes it (edit). */
  cwd?: string;
}

export class ConfigEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigEditError";
  }
}

type Raw = Record<string, unknown>;

function read(text: string): { value: unknown; wrapper: string[]; servers: Raw } {
  const value = text.trim() === "" ? {} : parseConfigText(text, "The MCP config");
  return { value, wrapper: serverMapPath(value), servers: rawServerMap(value) };
}

/**
 * Sets (undefined: removes) the value at `path`. Only the inserted text is formatted: formatting
 * the edit's whole lines would reflow the neighbouring entry the person laid out by hand.
 */
function set(text: string, path: (string | number)[], value: unknown): string {
  if (text.trim() === "") {
    // A new file: written whole, laid out like the ones the import writes.
    const whole = path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
    return `${JSON.stringify(whole ?? {}, null, 2)}\n`;
  }
  const base = text;
  const edits = modify(base, path, value, {});
  let out = applyEdits(base, edits);
  if (value === undefined) return out;
  for (const edit of edits) out = applyEdits(out, format(out, { offset: edit.offset, length: edit.content.length }, FORMAT));
  return out;
}

/** The edited text must still be a config, and `name` (unless removed) a server that can run. */
function validated(text: string, name: string, removed = false): string {
  let parsed;
  try {
    parsed = parseConfig(parseConfigText(text, "The edited config"), { expand: false });
  } catch (error) {
    throw new ConfigEditError((error as Error).message);
  }
  if (!removed) {
    const invalid = parsed.invalid.find((i) => i.name === name);
    if (invalid) throw new ConfigEditError(invalid.error);
    if (!parsed.servers.some((s) => s.name === name)) throw new ConfigEditError(`"${name}" would not be read as a server`);
  }
  return text.endsWith("\n") ? text : `${text}\n`;
}

function checkName(name: string): void {
  if (name.trim() === "" || name !== name.trim()) throw new ConfigEditError("a server name must be non-empty, without spaces around it");
  if (name.length > 100) throw new ConfigEditError("a server name is at most 100 characters");
}

function entryOf(fields: ServerFields): Raw {
  if (fields.command !== undefined && fields.url !== undefined) throw new ConfigEditError("give a command (local server) or a url (remote server), not both");
  if (fields.command === undefined && fields.url === undefined) throw new ConfigEditError("give a command (local server) or a url (remote server)");
  if (fields.command !== undefined) {
    if (fields.headers && Object.keys(fields.headers).length > 0) throw new ConfigEditError("headers are for remote servers (--url)");
    return {
      command: fields.command,
      ...(fields.args && fields.args.length > 0 ? { args: fields.args } : {}),
      ...(fields.env && Object.keys(fields.env).length > 0 ? { env: fields.env } : {}),
      ...(fields.cwd ? { cwd: fields.cwd } : {}),
    };
  }
  if (fields.args && fields.args.length > 0) throw new ConfigEditError("arguments are for local servers (--command)");
  return {
    url: fields.url,
    ...(fields.headers && Object.keys(fields.headers).length > 0 ? { headers: fields.headers } : {}),
    ...(fields.env && Object.keys(fields.env).length > 0 ? { env: fields.env } : {}),
  };
}

/** Adds a new server; refuses a name already in use. */
export function addServer(text: string, name: string, fields: ServerFields): string {
  checkName(name);
  const { wrapper, servers } = read(text);
  if (name in servers) throw new ConfigEditError(`a server named "${name}" already exists; edit it or pick another name`);
  return validated(set(text, [...wrapper, name], entryOf(fields)), name);
}

/**
 * Changes the given fields of a server, keeping its other keys (timeouts, oauth, importedFrom…).
 * Switching between command and url drops the keys of the other kind.
 */
export function editServer(text: string, name: string, fields: ServerFields): string {
  const { wrapper, servers } = read(text);
  const raw = servers[name];
  if (raw === undefined || typeof raw !== "object" || raw === null) throw new ConfigEditError(`no server named "${name}"`);
  let out = text;
  const put = (key: string, value: unknown) => (out = set(out, [...wrapper, name, key], value));
  if (fields.command !== undefined) {
    for (const key of ["url", "serverUrl", "httpUrl", "headers", "type"]) if (key in raw) put(key, undefined);
    put("command", fields.command);
  }
  if (fields.url !== undefined) {
    for (const key of ["command", "args", "serverUrl", "httpUrl", "type"]) if (key in raw) put(key, undefined);
    put("url", fields.url);
  }
  if (fields.args !== undefined) put("args", fields.args.length > 0 ? fields.args : undefined);
  if (fields.env !== undefined) put("env", Object.keys(fields.env).length > 0 ? fields.env : undefined);
  if (fields.headers !== undefined) put("headers", Object.keys(fields.headers).length > 0 ? fields.headers : undefined);
  if (fields.cwd !== undefined && (fields.cwd !== "" || "cwd" in raw)) put("cwd", fields.cwd !== "" ? fields.cwd : undefined);
  return validated(out, name);
}

/** Turns a server on or off; both spellings people have (`disabled`, `enabled`) are honoured. */
export function setServerEnabled(text: string, name: string, enabled: boolean): string {
  const { wrapper, servers } = read(text);
  const raw = servers[name] as Raw | undefined;
  if (raw === undefined || typeof raw !== "object" || raw === null) throw new ConfigEditError(`no server named "${name}"`);
  const at = (key: string) => [...wrapper, name, key];
  let out = text;
  if (enabled) {
    if ("disabled" in raw) out = set(out, at("disabled"), undefined);
    if ("enabled" in raw) out = set(out, at("enabled"), undefined);
  } else if ("enabled" in raw) {
    // The file's own spelling is kept.
    out = set(out, at("enabled"), false);
  } else {
    out = set(out, at("disabled"), true);
  }
  return validated(out, name);
}

export function removeServer(text: string, name: string): string {
  const { wrapper, servers } = read(text);
  if (!(name in servers)) throw new ConfigEditError(`no server named "${name}"`);
  return validated(set(text, [...wrapper, name], undefined), name, true);
}

/**
 * Applies `edit` to the text of the config at `path` (a missing file is empty) and writes the
 * result through the one safe writer: the file is read again once its lock is held, so concurrent
 * edits (two CLI runs, the page and the CLI) each keep theirs. A file that cannot be read or parsed
 * is left untouched.
 */
export async function editConfigFile(path: string, edit: (text: string) => string): Promise<{ before: string; after: string }> {
  let before = "";
  let after = "";
  await editFileSafe(
    path,
    (current) => {
      before = current ?? "";
      try {
        after = edit(before);
      } catch (error) {
        if (error instanceof McpConfigError) throw new ConfigEditError(`${path}: ${error.message}`);
        throw error;
      }
      return after === before && current === undefined ? null : after;
    },
    CONFIG_WRITE_OPTIONS,
  );
  return { before, after };
}
