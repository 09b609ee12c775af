// Connecting agents to the companion: which agents this machine has and whether each is connected
// (read with the same readers as `servers import`), and the planned change to one agent's files —
// shown before anything is written, then applied with a backup of each file that changes.
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { FileWriteError } from "../base/fs-errors";
import { createNewFile, editFileSafe, resolveWriteTarget } from "../base/safe-write";
import { ENTRY_NAME, isCompanionEntry, type ConnectOptions, type Via } from "./connect-form";
import { findOurHooks, hookCommand, hookTarget, installHook, removeHookCandidates, type HookAgentId, type HookTarget } from "./hook-edit";
import { clientById, discover, MAX_CLIENT_FILE_BYTES } from "./index";
import { EditError, parseJsonc } from "./json-edit";
import { lineDiff } from "./text-diff";
import type { Machine } from "./types";
import type { AgentView } from "../../shared/agents";
import { undo, type ClientWriter } from "./writer";
import { WRITERS } from "./writers";

/** What the Agents view and `agents list` show of one agent: the page's own shape, one definition. */
export type AgentStatus = AgentView;

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** A file's text, `undefined` when it does not exist. Refuses files the clients would not read. */
async function readIfThere(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new EditError(`${file} is not a file`);
    if (info.size > MAX_CLIENT_FILE_BYTES) throw new EditError(`${file} is larger than ${MAX_CLIENT_FILE_BYTES} bytes`);
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

async function firstExisting(files: string[]): Promise<string> {
  for (const file of files) if (await exists(file)) return file;
  return files[0];
}

function hookFiles(target: HookTarget, machine: Machine): string[] {
  return [...target.files(machine), ...(machine.project ? target.files(machine, machine.project) : [])];
}

export async function listAgents(machine: Machine, gateway: string): Promise<AgentStatus[]> {
  const statuses: AgentStatus[] = [];
  for (const writer of WRITERS) {
    const reader = clientById(writer.id)!;
    const reports = await discover(machine, [reader]);
    const homes = await Promise.all(writer.homes(machine).map(exists));
    const status: AgentStatus = {
      id: writer.id,
      label: writer.label,
      found: homes.some(Boolean) || reports.length > 0,
      connections: [],
      stale: [],
      defaultVia: writer.defaultVia,
      http: writer.http,
      docs: writer.docs,
      errors: reports.flatMap((r) => (r.error ? [r.error] : [])),
    };
    for (const report of reports) {
      for (const server of report.servers) {
        if (isCompanionEntry(server.entry, gateway)) status.connections.push({ file: report.file, name: server.name, scope: server.from.scope ?? report.scope });
        else if (server.name === ENTRY_NAME) status.stale.push({ file: report.file, scope: server.from.scope ?? report.scope });
      }
    }
    const target = hookTarget(writer.id);
    if (target) {
      status.hook = { installed: [] };
      for (const file of hookFiles(target, machine)) {
        try {
          const text = await readIfThere(file);
          if (text !== undefined && findOurHooks(text, target.agent).length > 0) status.hook.installed.push(file);
        } catch (error) {
          status.errors.push(`${file}: ${(error as Error).message}`);
        }
      }
    }
    statuses.push(status);
  }
  return statuses;
}

/** One file's planned change. `before` undefined: the file does not exist yet; `after` null: delete it. */
export interface FileChange {
  file: string;
  what: "server" | "hook";
  before: string | undefined;
  after: string | null;
  /** Said to the person: "added …", "already connected", why nothing changes. */
  note: string;
  /** The project folder the file is in (`--project DIR`): the write never leaves it. */
  within?: string;
  /** The new text holds the gateway token itself (`--literal-token`): the file ends 0600. */
  secret?: boolean;
}

/**
 * The project folder `file` is in, when it is one of the project's files; refuses a file whose
 * symlinks (its own, or a folder's on the way) lead out of that folder — before it is even read.
 */
function projectOf(file: string, project: string | undefined): string | undefined {
  if (project === undefined) return undefined;
  const rel = relative(resolve(project), resolve(file));
  if (rel.startsWith("..") || isAbsolute(rel)) return undefined;
  try {
    resolveWriteTarget(file, project);
  } catch (error) {
    if (error instanceof FileWriteError) throw new EditError(error.message);
    throw error;
  }
  return project;
}

export const changes = (plan: FileChange[]) => plan.filter((c) => (c.after === null ? c.before !== undefined : c.after !== (c.before ?? "")));

/**
 * The backup connect made, when connecting it again gives exactly the current text: the surest
 * inverse (the text alone cannot tell an empty `"mcpServers": {}` that was there from none).
 */
async function fromBackup(file: string, text: string, redo: (candidate: string) => string): Promise<string | undefined> {
  let names: string[];
  try {
    names = (await readdir(dirname(file))).filter((n) => n.startsWith(`${basename(file)}.bak-`));
  } catch {
    return undefined;
  }
  for (const name of names.sort().reverse().slice(0, 10)) {
    try {
      const saved = await readFile(join(dirname(file), name), "utf8");
      if (saved !== text && redo(saved) === text) return saved;
    } catch {
      // unreadable backup: not the one
    }
  }
  return undefined;
}

/**
 * A file that holds nothing but what connecting wrote into an empty one was created by connecting:
 * disconnecting deletes it, so the two leave the folder as it was.
 */
function orDelete(text: string, after: string, fresh: () => string): string | null {
  try {
    return after !== text && fresh() === text ? null : after;
  } catch {
    return after;
  }
}

export interface PlanOptions {
  project?: string;
  hooks?: boolean;
  connect: ConnectOptions;
}

/** Checks the file reads the way its client reads it, so we never edit what the client rejects. */
function checkReadable(writer: ClientWriter, file: string, text: string, machine: Machine): void {
  if (text.trim() === "") return;
  const result = clientById(writer.id)!.read(text, { file, scope: "user" }, machine);
  if (result.error) throw new EditError(`${result.error}; fix it first — nothing was changed`);
}

async function planServer(writer: ClientWriter, machine: Machine, options: PlanOptions, connect: boolean): Promise<FileChange> {
  const file = await firstExisting(writer.files(machine, options.project));
  const within = projectOf(file, options.project);
  return { ...(await planServerIn(file, writer, machine, options, connect)), ...(within ? { within } : {}) };
}

async function planServerIn(file: string, writer: ClientWriter, machine: Machine, options: PlanOptions, connect: boolean): Promise<FileChange> {
  const before = await readIfThere(file);
  const text = before ?? "";
  checkReadable(writer, file, text, machine);
  if (connect) {
    const elsewhere = clientById(writer.id)!
      .read(text, { file, scope: "user" }, machine)
      .servers.find((s) => s.name !== ENTRY_NAME && isCompanionEntry(s.entry, options.connect.gatewayUrl));
    if (elsewhere) return { file, what: "server", before, after: text, note: `already connected through "${elsewhere.name}"` };
    const after = writer.connect(text, { ...options.connect, agent: writer.id });
    const secret = options.connect.literalToken !== undefined && after !== text;
    return { file, what: "server", before, after, note: after === text ? "already connected" : `adds "${ENTRY_NAME}"`, ...(secret ? { secret } : {}) };
  }
  // Undo with any form, so a file connected over HTTP, or by a companion whose shim took no
  // --agent yet, still comes back byte for byte.
  const candidates = writer.disconnect(text);
  const redo = (c: string) => {
    for (const via of ["shim", "http"] as const) {
      for (const agent of [writer.id, undefined]) {
        try {
          const again = writer.connect(c, { ...options.connect, via, ...(agent ? { agent } : {}) });
          if (again === text) return again;
        } catch {
          // that form does not apply to this client
        }
      }
    }
    return "";
  };
  const undone = (await fromBackup(file, text, redo)) ?? undo(text, candidates, redo);
  const after = orDelete(text, undone, () => redo(""));
  return { file, what: "server", before, after, note: undone === text ? "not connected" : after === null ? `removes "${ENTRY_NAME}" and the file, which held nothing else` : `removes "${ENTRY_NAME}"` };
}

async function planHook(target: HookTarget, machine: Machine, options: PlanOptions, connect: boolean): Promise<FileChange> {
  const file = target.files(machine, options.project)[0];
  const within = projectOf(file, options.project);
  return { ...(await planHookIn(file, target, machine, options, connect)), ...(within ? { within } : {}) };
}

async function planHookIn(file: string, target: HookTarget, machine: Machine, options: PlanOptions, connect: boolean): Promise<FileChange> {
  const before = await readIfThere(file);
  const text = before ?? "";
  try {
    parseJsonc(text);
  } catch (error) {
    throw new EditError(`${file} is ${(error as Error).message}; fix it first — nothing was changed`);
  }
  if (connect) {
    const command = hookCommand(options.connect.cli, target.agent as HookAgentId, machine.platform);
    const after = installHook(text, target.agent, command);
    return { file, what: "hook", before, after, note: after === text ? "permission hook already installed" : `adds the PermissionRequest hook \`${command}\`` };
  }
  const found = findOurHooks(text, target.agent);
  if (found.length === 0) return { file, what: "hook", before, after: text, note: "no permission hook of ours" };
  const redo = (c: string) => installHook(c, target.agent, found[0][2]);
  const undone = (await fromBackup(file, text, redo)) ?? undo(text, removeHookCandidates(text, target.agent), redo);
  const after = orDelete(text, undone, () => redo(""));
  return { file, what: "hook", before, after, note: after === null ? "removes the PermissionRequest hook and the file, which held nothing else" : "removes the PermissionRequest hook" };
}

/** What connecting (or disconnecting) `writer` changes, computed without writing anything. */
export async function plan(writer: ClientWriter, machine: Machine, options: PlanOptions, connect: boolean): Promise<FileChange[]> {
  const out = [await planServer(writer, machine, options, connect)];
  if (options.hooks) {
    const target = hookTarget(writer.id);
    if (!target) throw new EditError(`${writer.label} has no permission hook the companion can answer (only Claude Code and Codex do)`);
    out.push(await planHook(target, machine, options, connect));
  }
  return out;
}

export function diff(change: FileChange): string {
  if (change.after === null) return `--- ${change.file}\n+++ /dev/null (deleted)\n`;
  return lineDiff(change.before ?? "", change.after, change.file);
}

function stamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

/**
 * `file.bak-<timestamp>` beside it, written with O_EXCL: never overwriting an older backup, nor
 * following a link someone left under that name. Private (0600): the file may hold a token.
 */
function backup(file: string, text: string, now: Date): string {
  for (let n = 0; ; n++) {
    const path = `${file}.bak-${stamp(now)}${n === 0 ? "" : `-${n}`}`;
    try {
      createNewFile(path, text, 0o600);
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || n > 100) throw error;
    }
  }
}

/**
 * Writes one planned change under the file's lock: refuses if the file changed since it was
 * planned (an agent rewriting its settings meanwhile), backs up an existing file first, writes
 * through a symlink to the file it points to — inside the project folder, for a project's file.
 */
export async function apply(change: FileChange, now: Date = new Date()): Promise<{ backup?: string }> {
  if (!changes([change]).length) return {};
  let saved: string | undefined;
  await editFileSafe(
    change.file,
    (current, target) => {
      if (current !== change.before) throw new EditError(`${change.file} changed while this was planned; run the command again`);
      if (current !== undefined) saved = backup(target, current, now);
      return change.after;
    },
    { dirMode: 0o755, ...(change.within ? { within: change.within } : {}), ...(change.secret ? { secret: true } : {}), maxBytes: MAX_CLIENT_FILE_BYTES },
  );
  return saved ? { backup: saved } : {};
}
