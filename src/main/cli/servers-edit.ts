// `toolnexus-companion servers add|edit|enable|disable|remove`: one server changed in the
// companion's own config, the file's comments, unknown keys and other servers kept, the result
// checked before it is written atomically. A running companion sees the edit and applies it to
// that server alone (src/main/mcp/supervisor.ts).
import { parseArgs } from "node:util";
import { fileErrorSentence } from "../base/fs-errors";
import { resolveConfigPath } from "../mcp/config/file";
import { joinDashValues } from "./args";
import { complainer, out } from "./print";
import { addServer, ConfigEditError, editConfigFile, editServer, removeServer, setServerEnabled, type ServerFields } from "../mcp/config/edit";

export const EDIT_USAGE = `  toolnexus-companion servers add NAME (--command CMD [--arg A]... | --url URL) [--env K=V]... [--header K=V]... [--config PATH]
  toolnexus-companion servers edit NAME [--command CMD] [--arg A]... [--url URL] [--env K=V]... [--header K=V]... [--config PATH]
  toolnexus-companion servers enable|disable|remove NAME [--config PATH]

  --arg takes the next word whatever it starts with (--arg -y, or --arg=-y). edit replaces only what it is given
  (--arg, --env, --header each replace that whole list).
  A running companion applies the change within a second or two.
`;

const err = complainer("servers");

function pairs(values: string[] | undefined, what: string): Record<string, string> | undefined {
  if (!values) return undefined;
  const out: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf("=");
    if (at <= 0) throw new ConfigEditError(`--${what} ${JSON.stringify(value)}: write it as KEY=VALUE`);
    out[value.slice(0, at)] = value.slice(at + 1);
  }
  return out;
}

function fields(args: string[]): { name?: string; fields: ServerFields; config?: string } {
  const { values, positionals } = parseArgs({
    args: joinDashValues(args),
    allowPositionals: true,
    strict: true,
    options: {
      command: { type: "string" },
      arg: { type: "string", multiple: true },
      url: { type: "string" },
      env: { type: "string", multiple: true },
      header: { type: "string", multiple: true },
      config: { type: "string", short: "c" },
    },
  });
  if (positionals.length > 1) throw new ConfigEditError(`one server name, not ${positionals.length} (quote a name with spaces)`);
  const env = pairs(values.env, "env");
  const headers = pairs(values.header, "header");
  return {
    name: positionals[0],
    config: values.config,
    fields: {
      ...(values.command !== undefined ? { command: values.command } : {}),
      ...(values.arg !== undefined ? { args: values.arg } : {}),
      ...(values.url !== undefined ? { url: values.url } : {}),
      ...(env ? { env } : {}),
      ...(headers ? { headers } : {}),
    },
  };
}

const DONE: Record<string, string> = { add: "added", edit: "changed", enable: "enabled", disable: "disabled", remove: "removed" };

/** Runs one edit subcommand; undefined when `sub` is not one of them. */
export async function runServerEdit(sub: string | undefined, args: string[]): Promise<number | undefined> {
  if (!sub || !(sub in DONE)) return undefined;
  try {
    const parsed = fields(args);
    const name = parsed.name;
    if (!name) return (err(`${sub} needs a server name\n\nUsage:\n${EDIT_USAGE}`), 2);
    if (sub !== "add" && sub !== "edit" && Object.keys(parsed.fields).length > 0) return (err(`${sub} takes only a name`), 2);
    const path = resolveConfigPath(parsed.config);
    const edit = (text: string): string => {
      switch (sub) {
        case "add":
          return addServer(text, name, parsed.fields);
        case "edit":
          if (Object.keys(parsed.fields).length === 0) throw new ConfigEditError("edit needs something to change (--command, --arg, --url, --env, --header)");
          return editServer(text, name, parsed.fields);
        case "enable":
          return setServerEnabled(text, name, true);
        case "disable":
          return setServerEnabled(text, name, false);
        default:
          return removeServer(text, name);
      }
    };
    const { before, after } = await editConfigFile(path, edit);
    out(before === after ? `"${name}" was already ${DONE[sub]}; ${path} is unchanged.` : `"${name}" ${DONE[sub]} in ${path}.`);
    return 0;
  } catch (error) {
    if (error instanceof ConfigEditError) return (err(`${error.message}\nNothing was written.`), 1);
    const sentence = fileErrorSentence(error);
    if (sentence) return (err(sentence), 1);
    if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) return (err(`${(error as Error).message}\n\nUsage:\n${EDIT_USAGE}`), 2);
    throw error;
  }
}
