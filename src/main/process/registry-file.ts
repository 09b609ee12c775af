// The registry file: which process groups this companion has running, written on every change,
// so that the next start can end what a crashed companion (and its watchdog) left behind. One
// file per companion (`groups-<pid>.json`), so a desktop app and a browser-mode companion never
// write the same file. Each entry carries the leader's identity (identity.ts): a later start
// kills a group only if the process behind the pid is still the one recorded. A registry file (or
// folder) other users can change is not read: it names process groups to kill (base/file-trust.ts).
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { trustProblem } from "../base/file-trust";
import { writeFileSafeSync } from "../base/safe-write";
import type { LiveGroup } from "./groups";

export interface RegistryOwner {
  pid: number;
  identity: string;
}

export interface RegistryRecord {
  version: 1;
  owner: RegistryOwner;
  groups: LiveGroup[];
}

/** Larger files are not ours (a companion runs a handful of servers): ignored and removed. */
const MAX_FILE_BYTES = 256 * 1024;
const FILE_PATTERN = /^groups-\d+\.json$/;

export function registryPath(dir: string, ownerPid: number): string {
  return join(dir, `groups-${ownerPid}.json`);
}

/** Writes the whole record through the one safe writer: a crash mid-write leaves the old one. */
export function writeRegistry(dir: string, record: RegistryRecord): void {
  writeFileSafeSync(registryPath(dir, record.owner.pid), `${JSON.stringify(record)}\n`, { mode: 0o600, dirMode: 0o700 });
}

export function removeRegistry(dir: string, ownerPid: number): void {
  rmSync(registryPath(dir, ownerPid), { force: true });
}

function isGroup(value: unknown): value is LiveGroup {
  const g = value as LiveGroup;
  return (
    typeof g === "object" &&
    g !== null &&
    Number.isSafeInteger(g.pgid) &&
    g.pgid > 1 &&
    (g.identity === undefined || typeof g.identity === "string") &&
    typeof g.command === "string"
  );
}

/** A parsed record, or undefined for anything that is not one (the file is then removed). */
function parseRegistry(text: string): RegistryRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = value as RegistryRecord;
  if (typeof r !== "object" || r === null || r.version !== 1) return undefined;
  if (typeof r.owner !== "object" || r.owner === null || !Number.isSafeInteger(r.owner.pid) || typeof r.owner.identity !== "string") return undefined;
  if (!Array.isArray(r.groups) || !r.groups.every(isGroup)) return undefined;
  return r;
}

export interface RegistryEntry {
  path: string;
  record?: RegistryRecord;
}

/** Every registry file in `dir` (none when it does not exist). */
export function readRegistries(dir: string): RegistryEntry[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const entries: RegistryEntry[] = [];
  for (const name of names) {
    if (!FILE_PATTERN.test(name)) continue;
    const path = join(dir, name);
    try {
      // Someone else's file is neither acted on nor removed.
      if (trustProblem(path)) continue;
      const text = readFileSync(path, "utf8");
      entries.push(text.length > MAX_FILE_BYTES ? { path } : { path, record: parseRegistry(text) });
    } catch {
      // Vanished between listing and reading: its owner removed it on exit.
    }
  }
  return entries;
}
