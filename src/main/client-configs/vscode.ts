// VS Code (code.visualstudio.com/docs/copilot/reference/mcp-configuration): `mcp.json` in the
// user profile (Code/User/mcp.json under %APPDATA%, ~/Library/Application Support or
// $XDG_CONFIG_HOME / ~/.config) and <workspace>/.vscode/mcp.json; JSONC. `servers` maps names to
// {type: stdio, command, args, env, envFile, cwd} or {type: http|sse, url, headers}; `inputs`
// lists promptString inputs ({id, description, password}) that `${input:id}` refers to. Older
// versions kept the same under `mcp` in settings.json.
import { standardDraft } from "./entry";
import { appData, join, project, unique, user } from "./paths";
import { documentObject, empty, isError, readMap } from "./read";
import type { ClientReader, InputMeta, Machine } from "./types";
import { isPlainObject } from "../../shared/unknown-value";

const EDITIONS = ["Code", "Code - Insiders"];

function userFiles(machine: Machine) {
  return EDITIONS.flatMap((edition) => [
    user(join(machine, appData(machine), edition, "User", "mcp.json")),
    user(join(machine, appData(machine), edition, "User", "settings.json")),
  ]);
}

function inputsOf(value: unknown): Map<string, InputMeta> {
  const map = new Map<string, InputMeta>();
  if (!Array.isArray(value)) return map;
  for (const input of value) {
    if (!isPlainObject(input) || typeof input.id !== "string") continue;
    map.set(input.id, {
      id: input.id,
      ...(typeof input.description === "string" ? { description: input.description } : {}),
      ...(input.password === true ? { password: true } : {}),
    });
  }
  return map;
}

export const vscode: ClientReader = {
  id: "vscode",
  label: "VS Code",
  locations: (machine) => unique([...userFiles(machine), ...project(machine, ".vscode", "mcp.json")]),
  read(text, location, machine) {
    const doc = documentObject(text, location.file, "jsonc");
    if (isError(doc)) return { ...empty(), error: doc.error };
    // settings.json: only its `mcp` section is about servers; every other key is an editor setting.
    const holder = location.file.endsWith("settings.json") ? doc.mcp : doc;
    if (!isPlainObject(holder) || holder.servers === undefined) return empty();
    if (!isPlainObject(holder.servers)) return { ...empty(), error: `${location.file}: "servers" is not an object of servers` };
    return readMap(holder.servers, standardDraft, { machine, location, client: "vscode", dialect: "vscode", inputs: inputsOf(holder.inputs) });
  },
};
