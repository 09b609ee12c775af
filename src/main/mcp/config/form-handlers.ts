// "Add a server" and "Edit" in the Servers view: the entry as the form shows it, and a save that
// checks every field in main (mcp/server-form.ts), stores the headers the person chose to keep in
// the keychain, and writes through config-edit.ts (comments and other keys kept). Refused values
// come back as field errors with nothing written; a value is never stored for a config that is
// then not written, short of the file changing between the check and the write.
import { readFile } from "node:fs/promises";
import type { ServerView } from "../../../shared/types";
import type { HandlerMap, ServerManagementInvokeMap } from "../../../shared/contract";
import type { ServerSaveResult } from "../../../shared/server-form";
import { rawServerMap } from "./parse";
import { parseConfigText } from "../../base/config-text";
import { addServer, ConfigEditError, editConfigFile, editServer } from "./edit";
import { checkServerForm, formOfEntry, type CheckedForm } from "./server-form";
import { ArgumentError, HandlerError } from "../../rpc/envelope";
import { defineHandlers } from "../../rpc/handlers";
import { objectArg, stringField } from "../../rpc/validate";
import { isPlainObject } from "../../../shared/unknown-value";

const MAX_NAME = 200;

export interface FormHandlerDeps {
  configPath: (channel: string) => string;
  notSessionOnly: (name: string) => void;
  servers: () => ServerView[];
  settled: () => Promise<void> | undefined;
  secrets?: { set(name: string, value: string): Promise<void> };
  /** What core's scrubbing of every handler result does to a value on its way to the page (app/egress.ts). */
  scrub: (text: string) => string;
}

/** The file's server map as written; a missing file has none. */
async function fileServers(path: string): Promise<{ text: string; servers: Record<string, unknown> }> {
  let text = "";
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new HandlerError("config-unreadable", `${path}: ${(error as Error).message}`);
  }
  return { text, servers: serversOf(text, path) };
}

function serversOf(text: string, path: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    return rawServerMap(parseConfigText(text, path));
  } catch (error) {
    throw new HandlerError("config-error", `The config file has an error; fix it first (nothing was written): ${(error as Error).message}`);
  }
}

/** A check of the form refused against the text the write was about to change. */
class Refused extends Error {
  constructor(readonly fieldErrors: Record<string, string[]>) {
    super("refused");
  }
}

export type FormChannel = "servers:entry" | "servers:save";
export type FormHandlers = HandlerMap<Pick<ServerManagementInvokeMap, FormChannel>>;

export function createFormHandlers(deps: FormHandlerDeps): FormHandlers {
  const refused = (fieldErrors: Record<string, string[]>): ServerSaveResult => ({ saved: false, fieldErrors, storedSecrets: [], servers: deps.servers() });
  const edit = (checked: CheckedForm, original: string | undefined) => (text: string) =>
    original === undefined ? addServer(text, checked.name, checked.fields) : editServer(text, original, checked.fields);
  let saving: Promise<unknown> = Promise.resolve();
  const { scrub } = deps;

  const save = async (arg: unknown): Promise<ServerSaveResult> => {
    const input = objectArg("servers:save", arg);
    const original = input.original === undefined ? undefined : stringField("servers:save", input, "original", MAX_NAME);
    if (!isPlainObject(input.value)) throw new ArgumentError('servers:save needs "value" as the form\'s values.');
    const path = deps.configPath("servers:save");
    if (original !== undefined) deps.notSessionOnly(original);
    const { text, servers } = await fileServers(path);
    const checked = checkServerForm(input.value, { original, servers, scrub });
    if (Object.keys(checked.fieldErrors).length > 0) return refused(checked.fieldErrors);
    // The whole edit once on the text as read, before any secret is stored for it.
    try {
      edit(checked, original)(text);
    } catch (error) {
      if (error instanceof ConfigEditError) return refused({ "": [error.message] });
      throw error;
    }
    if (checked.secrets.length > 0 && !deps.secrets) return refused({ "": ["There is no keychain here: write the header's value itself, or a ${VAR} reference."] });
    for (const secret of checked.secrets) await deps.secrets!.set(secret.name, secret.value);
    try {
      await editConfigFile(path, (current) => {
        // The file may have changed since it was read: check against what is written over.
        const again = checkServerForm(input.value, { original, servers: serversOf(current, path), scrub });
        if (Object.keys(again.fieldErrors).length > 0) throw new Refused(again.fieldErrors);
        return edit(again, original)(current);
      });
    } catch (error) {
      if (error instanceof Refused) return refused(error.fieldErrors);
      if (error instanceof ConfigEditError) return refused({ "": [error.message] });
      throw error;
    }
    await deps.settled();
    return { saved: true, fieldErrors: {}, storedSecrets: checked.secrets.map((s) => s.name), servers: deps.servers() };
  };

  return defineHandlers<Pick<ServerManagementInvokeMap, FormChannel>>({
    async "servers:entry"(arg: unknown) {
      const name = stringField("servers:entry", objectArg("servers:entry", arg), "name", MAX_NAME);
      deps.notSessionOnly(name);
      const { servers } = await fileServers(deps.configPath("servers:entry"));
      const raw = Object.prototype.hasOwnProperty.call(servers, name) ? servers[name] : undefined;
      if (!isPlainObject(raw)) throw new HandlerError("unknown-server", `The config file has no server named "${name}".`);
      return formOfEntry(name, raw, scrub);
    },
    async "servers:save"(arg: unknown): Promise<ServerSaveResult> {
      // One save at a time: two clicks must not both check against the same old file.
      const run = saving.then(() => save(arg));
      saving = run.catch(() => {});
      return run;
    },
  });
}
