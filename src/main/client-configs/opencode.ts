// opencode (opencode.ai/docs/mcp-servers): opencode.json or opencode.jsonc in
// $XDG_CONFIG_HOME/opencode (~/.config/opencode on every platform), in the project root and in
// <project>/.opencode. Two layouts: V1 `mcp: { NAME: {…} }` with `enabled`, and V2
// `mcp: { servers: { NAME: {…} } }` with `disabled`. Local: {type: "local", command: [cmd, …args],
// environment, cwd}; remote: {type: "remote", url, headers}. `{env:VAR}` and `{file:path}` anywhere.
import { NotImportable, positive, str, strList, strMap, type Draft, type Raw } from "./entry";
import { join, project, unique, user, xdgConfig } from "./paths";
import { documentObject, empty, isError, readMap } from "./read";
import type { ClientReader } from "./types";
import { isPlainObject } from "../../shared/unknown-value";

function opencodeDraft(raw: Raw): Draft {
  const common = { disabled: raw.enabled === false || raw.disabled === true, timeout: positive(raw, "timeout") };
  if (raw.type === "remote" || (raw.type === undefined && raw.url !== undefined)) {
    return { ...common, url: str(raw, "url"), headers: strMap(raw, "headers"), transport: "http" };
  }
  if (raw.type !== undefined && raw.type !== "local") throw new NotImportable(`unknown type "${String(raw.type)}"`);
  const command = typeof raw.command === "string" ? [raw.command] : strList(raw, "command");
  if (!command || command.length === 0) throw new NotImportable("it has no `command`");
  const [cmd, ...args] = command;
  return { ...common, command: cmd, args: [...args, ...(strList(raw, "args") ?? [])], env: strMap(raw, "environment") ?? strMap(raw, "env"), cwd: str(raw, "cwd") };
}

const NAMES = ["opencode.json", "opencode.jsonc"];

export const opencode: ClientReader = {
  id: "opencode",
  label: "opencode",
  locations: (machine) =>
    unique([
      ...NAMES.map((n) => user(join(machine, xdgConfig(machine), "opencode", n))),
      ...NAMES.flatMap((n) => project(machine, n)),
      ...NAMES.flatMap((n) => project(machine, ".opencode", n)),
    ]),
  read(text, location, machine) {
    const doc = documentObject(text, location.file, "jsonc");
    if (isError(doc)) return { ...empty(), error: doc.error };
    if (doc.mcp === undefined) return empty();
    if (!isPlainObject(doc.mcp)) return { ...empty(), error: `${location.file}: "mcp" is not an object` };
    // V2 nests the servers under `mcp.servers`; a V1 server named "servers" has a type or command.
    const v2 = isPlainObject(doc.mcp.servers) && !("type" in doc.mcp.servers) && !("command" in doc.mcp.servers) && !("url" in doc.mcp.servers);
    const map = v2 ? (doc.mcp.servers as Raw) : doc.mcp;
    return readMap(map, opencodeDraft, { machine, location, client: "opencode", dialect: "opencode" });
  },
};
