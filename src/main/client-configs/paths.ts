// The per-platform folders clients keep their settings in. Built from a `Machine` (not from
// `os.homedir()` directly) so tests point every client at a temporary HOME.
import { posix, win32 } from "node:path";
import type { Location, Machine } from "./types";

export const pathApi = (machine: Machine) => (machine.platform === "win32" ? win32 : posix);

export function join(machine: Machine, ...parts: string[]): string {
  return pathApi(machine).join(...parts);
}

/** `$XDG_CONFIG_HOME`, else `~/.config` — where Linux apps (and opencode and Zed everywhere but Windows) keep settings. */
export function xdgConfig(machine: Machine): string {
  return machine.env.XDG_CONFIG_HOME || join(machine, machine.home, ".config");
}

/**
 * The folder Electron apps (Claude Desktop, VS Code) keep user settings in: `%APPDATA%` on
 * Windows, `~/Library/Application Support` on macOS, `$XDG_CONFIG_HOME` or `~/.config` on Linux.
 */
export function appData(machine: Machine): string {
  if (machine.platform === "win32") return machine.env.APPDATA || join(machine, machine.home, "AppData", "Roaming");
  if (machine.platform === "darwin") return join(machine, machine.home, "Library", "Application Support");
  return xdgConfig(machine);
}

export function user(file: string): Location {
  return { file, scope: "user" };
}

export function project(machine: Machine, ...parts: string[]): Location[] {
  if (!machine.project) return [];
  return [{ file: join(machine, machine.project, ...parts), scope: `project:${machine.project}`, project: machine.project }];
}

/** Drops repeated paths (the Linux fallback equal to `$XDG_CONFIG_HOME`, a project that is HOME). */
export function unique(locations: Location[]): Location[] {
  const seen = new Set<string>();
  return locations.filter((l) => (seen.has(l.file) ? false : (seen.add(l.file), true)));
}
