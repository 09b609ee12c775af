// The Servers view's Add/Edit form, checked in main before anything is written: what a config
// entry looks like in the form (a literal value that may be a secret is not sent, only `kept`),
// and the form's values turned back into the fields config-edit.ts writes, with an error per field
// for whatever a person typed that the config could not run. Pure: no file, no keychain.
import { isAbsolute } from "node:path";
import type { ServerFormPair, ServerFormValue } from "../../../shared/server-form";
import { redactArgs, redactUrl, redactValue } from "../../secrets/redact-view";
import { isSecretPair } from "../../../forms/secret-shape";
import { SECRET_NAME } from "../../secrets/types";
import type { ServerFields } from "./edit";
import { isPlainObject } from "../../../shared/unknown-value";

type Raw = Record<string, unknown>;

const MAX_NAME = 100;
const MAX_TEXT = 4096;
const MAX_VALUE = 32 * 1024;
const MAX_ROWS = 256;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** RFC 9110 `token`: what a header name may be. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const REFERENCE = /\$\{[^}]*\}/;

const strings = (v: unknown): Record<string, string> =>
  isPlainObject(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string")) : {};

/** Replaces the secrets the app knows (the scrubber's `[redacted]`); identity in pure tests. */
export type Scrub = (text: string) => string;

/**
 * An env value the page may see: a `${…}` reference, or a literal that is no secret by the one
 * env/header check (secret-shape.ts) and that the page's mask would leave as it is.
 */
function envShown(name: string, value: string, scrub: Scrub): boolean {
  if (scrub(value) !== value) return false;
  if (REFERENCE.test(value)) return true;
  return !isSecretPair(name, value) && redactValue(value) === value;
}

const rawArgs = (raw: Raw): string[] => (Array.isArray(raw.args) ? raw.args.filter((a): a is string => typeof a === "string") : []);
const rawUrl = (raw: Raw): string => [raw.url, raw.serverUrl, raw.httpUrl].find((u): u is string => typeof u === "string") ?? "";

/**
 * What the page was shown for each of the file's values, to the value itself: a masked argument
 * or URL sent back unchanged keeps the file's value rather than writing the mask.
 */
function shownToFile(raw: Raw, scrub: Scrub): Map<string, string> {
  const map = new Map<string, string>();
  const add = (shown: string, file: string) => {
    if (shown !== file && !map.has(shown)) map.set(shown, file);
  };
  const args = rawArgs(raw);
  redactArgs(args).forEach((shown, i) => add(scrub(shown), args[i]));
  if (typeof raw.command === "string") add(scrub(raw.command), raw.command);
  if (typeof raw.cwd === "string") add(scrub(raw.cwd), raw.cwd);
  const url = rawUrl(raw);
  if (url) add(scrub(redactUrl(url)), url);
  return map;
}

/**
 * A config entry as the form shows it. Header values are credentials more often than not: a
 * literal one is never sent. `${…}` references are shown as written.
 */
export function formOfEntry(name: string, raw: Raw, scrub: Scrub = (t) => t): ServerFormValue {
  const url = rawUrl(raw);
  const command = typeof raw.command === "string" ? raw.command : "";
  const env = Object.entries(strings(raw.env)).map(([k, v]): ServerFormPair => (envShown(k, v, scrub) ? { name: k, value: v } : { name: k, value: "", kept: true }));
  const headers = Object.entries(strings(raw.headers)).map(([k, v]): ServerFormPair =>
    REFERENCE.test(v) && scrub(v) === v ? { name: k, value: v } : { name: k, value: "", kept: true },
  );
  return {
    name,
    kind: command === "" && url !== "" ? "remote" : "local",
    command: scrub(command),
    args: redactArgs(rawArgs(raw)).map(scrub),
    env,
    cwd: typeof raw.cwd === "string" ? scrub(raw.cwd) : "",
    url: url ? scrub(redactUrl(url)) : "",
    headers,
  };
}

/** The keychain entry a header's value goes to: `<server>.<header>`, in the letters a secret name may use. */
function headerSecretName(server: string, header: string): string {
  let name = `${server}.${header}`.replace(/[^A-Za-z0-9_.-]/g, "_");
  if (!/^[A-Za-z_]/.test(name)) name = `_${name}`;
  return name.slice(0, 128);
}

export interface CheckedForm {
  name: string;
  fields: ServerFields;
  /** Values to store in the keychain before the config that refers to them is written. */
  secrets: Array<{ name: string; value: string }>;
  fieldErrors: Record<string, string[]>;
}

export interface FormContext {
  /** The server being edited; absent when adding. */
  original?: string;
  /** The config file's server map, as written (not expanded). */
  servers: Raw;
  /** The same scrub the entry was shown with (servers:entry). */
  scrub?: Scrub;
}

/** Checks the form's values against the file they would be written to; `fieldErrors` empty when it may be written. */
export function checkServerForm(input: unknown, context: FormContext): CheckedForm {
  const errors: Record<string, string[]> = {};
  const fail = (key: string, message: string) => (errors[key] ??= []).push(message);
  const value = isPlainObject(input) ? input : {};
  if (!isPlainObject(input)) fail("", "The form's values did not arrive.");
  const text = (key: string, v: unknown, max = MAX_TEXT, where = key): string => {
    if (v === undefined || v === null) return "";
    if (typeof v !== "string") return (fail(where, "Must be text."), "");
    if (v.length > max) fail(where, `At most ${max} characters.`);
    return v;
  };
  const rows = (key: string): unknown[] => {
    const v = value[key];
    if (v === undefined) return [];
    if (!Array.isArray(v)) return (fail(key, "Must be a list."), []);
    if (v.length > MAX_ROWS) fail(key, `At most ${MAX_ROWS} rows.`);
    return v.slice(0, MAX_ROWS);
  };

  const name = context.original ?? text("name", value.name, MAX_NAME + 1);
  if (context.original === undefined) {
    if (name.trim() === "") fail("name", "Give the server a name.");
    else if (name !== name.trim()) fail("name", "No spaces at the start or end.");
    else if (name.length > MAX_NAME) fail("name", `At most ${MAX_NAME} characters.`);
    else if (CONTROL.test(name)) fail("name", "Letters, digits, spaces and punctuation only.");
    else if (Object.prototype.hasOwnProperty.call(context.servers, name)) fail("name", `A server named "${name}" already exists: pick another name, or edit that one.`);
  } else if (!isPlainObject(context.servers[name])) {
    fail("", `The config file no longer has a server named "${name}".`);
  }
  const old = isPlainObject(context.servers[name]) && context.original !== undefined ? (context.servers[name] as Raw) : {};
  const shown = shownToFile(old, context.scrub ?? ((t) => t));
  const unmasked = (v: string) => shown.get(v) ?? v;
  const kind = value.kind;
  if (kind !== "local" && kind !== "remote") fail("kind", "Choose a local server (a command) or a remote one (a URL).");

  const pairs = (key: "env" | "headers", nameRule: RegExp, nameHint: string, kept: Record<string, string>) => {
    const out: Record<string, string> = {};
    const seen = new Set<string>();
    const secrets: CheckedForm["secrets"] = [];
    rows(key).forEach((row, i) => {
      const at = `${key}.${i}`;
      if (!isPlainObject(row)) return fail(at, "Must be a name and a value.");
      const k = text(`${at}.name`, row.name, 256);
      const v = text(`${at}.value`, row.value, MAX_VALUE);
      const keep = row.kept === true && v === "";
      if (k === "" && v === "" && !keep) return; // an empty row the form keeps for typing
      if (!nameRule.test(k)) return fail(`${at}.name`, nameHint);
      const folded = key === "headers" ? k.toLowerCase() : k;
      if (seen.has(folded)) return fail(`${at}.name`, `"${k}" is listed twice.`);
      seen.add(folded);
      let written = v;
      if (keep) {
        if (kept[k] === undefined) return fail(`${at}.value`, "Type the value: the one kept from the file was under another name.");
        written = kept[k];
      } else if (/[\r\n\0]/.test(v)) return fail(`${at}.value`, "One line, without control characters.");
      if (row.keychain === true && key === "headers") {
        if (REFERENCE.test(written) && !keep) return fail(`${at}.value`, "This already refers to a value; type the value itself to keep it in the keychain.");
        if (written === "") return fail(`${at}.value`, "Type the value to keep in the keychain.");
        const secret = headerSecretName(name, k);
        if (!SECRET_NAME.test(secret)) return fail(`${at}.name`, "This name cannot name a keychain entry.");
        secrets.push({ name: secret, value: written });
        written = `\${secret:${secret}}`;
      }
      out[k] = written;
    });
    return { out, secrets };
  };

  const fields: ServerFields = {};
  let secrets: CheckedForm["secrets"] = [];
  if (kind === "local") {
    const command = unmasked(text("command", value.command));
    if (command.trim() === "") fail("command", "Give the program to run, e.g. npx or /usr/local/bin/my-server.");
    else if (command !== command.trim()) fail("command", "No spaces at the start or end: put arguments in the rows below.");
    else if (CONTROL.test(command)) fail("command", "One line, without control characters.");
    const args: string[] = [];
    rows("args").forEach((a, i) => {
      const arg = unmasked(text(`args.${i}`, a));
      if (/[\0\r\n]/.test(arg)) fail(`args.${i}`, "One line, without control characters.");
      else if (arg !== "") args.push(arg);
    });
    const cwd = unmasked(text("cwd", value.cwd).trim());
    if (cwd !== "" && !isAbsolute(cwd) && !cwd.startsWith("${")) fail("cwd", "A full path, e.g. /home/you/project (or leave it empty).");
    else if (CONTROL.test(cwd)) fail("cwd", "One line, without control characters.");
    const env = pairs("env", ENV_NAME, "Letters, digits and _ only, not starting with a digit (e.g. API_BASE).", strings(old.env));
    Object.assign(fields, { command, args, env: env.out, cwd, headers: {} });
  } else if (kind === "remote") {
    const url = unmasked(text("url", value.url).trim());
    if (url === "") fail("url", "Give the server's address, e.g. https://example.com/mcp.");
    else {
      let parsed: URL | undefined;
      try {
        // `${VAR}` in a URL is expanded when it connects: check the rest of it.
        parsed = new URL(url.replace(/\$\{[^}]*\}/g, "x"));
      } catch {
        fail("url", "Not a web address: it starts with https:// (or http://).");
      }
      if (parsed && parsed.protocol !== "https:" && parsed.protocol !== "http:") fail("url", "Only http:// and https:// addresses.");
      else if (parsed && parsed.username + parsed.password !== "") fail("url", "Put credentials in a header (kept in the keychain), not in the address.");
    }
    const headers = pairs("headers", HEADER_NAME, "Letters, digits and - only (e.g. Authorization).", strings(old.headers));
    secrets = headers.secrets;
    // Env and cwd are a local server's: an edit that turns it remote drops them.
    Object.assign(fields, { url, headers: headers.out, env: {}, cwd: "" });
  }
  return { name, fields, secrets, fieldErrors: errors };
}
