// The one way the companion writes a file: its own config, other apps' configs (`agents connect`,
// their hooks), rules, backups, its process registry. Readers see the old file or the new one,
// never half: the text goes to a temporary file in the same folder (O_EXCL, private), is synced,
// renamed over the target, and the folder is synced, so a power cut cannot leave an empty file.
// Edits run under the file's lock (file-lock.ts) and read the file again inside it, so concurrent
// writers each keep their edit. A symlinked file (dotfiles) is written at the file it points to
// and stays a link; a caller that was given a folder (`--project DIR`) never writes outside it.
// The file and its folder must pass the trust rule (file-trust.ts) before anything is written.
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
  type Stats,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { asWriteError, FileWriteError } from "./fs-errors";
import { withFileLock, withFileLockSync, type LockOptions } from "./file-lock";
import { assertTrusted } from "./file-trust";

export interface SafeWriteOptions {
  /** The file's mode after the write; default: the mode it had, `0o644` for a new file. */
  mode?: number;
  /** The text holds a secret (a token, a header value): the file ends 0600 whatever it was. */
  secret?: boolean;
  /** Folders created on the way get this mode (default 0700). */
  dirMode?: number;
  /** The folder the caller was given: a target that resolves outside it is refused. */
  within?: string;
  /** Larger files are refused unread (a config someone replaced with something else). */
  maxBytes?: number;
  lock?: LockOptions;
}

/** The edit: the current text (undefined: no file) to the new text, or null to delete the file. */
export type Edit = (current: string | undefined, target: string) => string | null;

export interface EditOutcome {
  /** The file written: the given path, or the file its symlink points to. */
  target: string;
  before: string | undefined;
  after: string | null;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw asWriteError(error, path);
  }
}

/** The real path of `path` whose tail may not exist yet: the deepest existing folder, resolved, plus the rest. */
function realOfMaybeMissing(path: string): string {
  const missing: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(realpathSync(at), ...missing.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || dirname(at) === at) throw asWriteError(error, at);
      missing.push(basename(at));
      at = dirname(at);
    }
  }
}

const isInside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

/**
 * The file a write to `path` changes: `path` itself, or the file its symlink (or a symlinked
 * folder on the way) leads to. Refuses a link to nothing, something that is not a file, and —
 * given `within` — a target outside that folder.
 */
export function resolveWriteTarget(path: string, within?: string): string {
  const given = resolve(path);
  const info = lstatOrUndefined(given);
  let target: string;
  if (info?.isSymbolicLink()) {
    try {
      target = realpathSync(given);
    } catch {
      throw new FileWriteError(`${given} is a symbolic link to ${readlinkSync(given)}, which does not exist; create that file or remove the link. Nothing was changed.`, given);
    }
  } else {
    target = join(realOfMaybeMissing(dirname(given)), basename(given));
  }
  const real = lstatOrUndefined(target);
  if (real && !real.isFile()) throw new FileWriteError(`${target} is not a regular file; nothing was changed.`, target);
  if (within !== undefined) {
    const root = realOfMaybeMissing(resolve(within));
    if (!isInside(root, target)) {
      throw new FileWriteError(
        `${given} leads to ${target}, which is outside ${within}; the companion writes only inside the folder it was given (a symbolic link there points elsewhere). Nothing was changed.`,
        given,
      );
    }
  }
  return target;
}

/** Syncs a folder, so a rename in it survives a power cut (where the platform allows it). */
function fsyncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
    fsyncSync(fd);
  } catch (error) {
    // Windows opens no folder for syncing; some file systems refuse it (EINVAL). The file itself was synced.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EISDIR" && code !== "EINVAL" && code !== "EPERM" && code !== "EACCES" && code !== "ENOTSUP") throw asWriteError(error, folder);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function writeAll(fd: number, data: Buffer): void {
  for (let at = 0; at < data.length; ) at += writeSync(fd, data, at, data.length - at);
}

/** Writes a file that must not exist yet (a backup): never follows or replaces a link or a file. */
export function createNewFile(path: string, text: string, mode = 0o600): void {
  let fd: number;
  try {
    fd = openSync(path, CREATE_NEW, 0o600);
  } catch (error) {
    throw (error as NodeJS.ErrnoException).code === "EEXIST" ? error : asWriteError(error, path);
  }
  try {
    try {
      writeAll(fd, Buffer.from(text, "utf8"));
      fchmodSync(fd, mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    rmSync(path, { force: true });
    throw asWriteError(error, path);
  }
  fsyncFolder(dirname(path));
}

/** Replaces `target` with `text` through a synced temporary file and a rename; on failure the target is as it was. */
function replaceFile(target: string, text: string, mode: number, previous: Stats | undefined): void {
  const folder = dirname(target);
  const temp = join(folder, `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    const fd = openSync(temp, CREATE_NEW, 0o600);
    try {
      writeAll(fd, Buffer.from(text, "utf8"));
      fchmodSync(fd, mode);
      // Root editing a person's file (sudo) leaves it theirs.
      if (previous && process.getuid?.() === 0 && previous.uid !== 0) fchownSync(fd, previous.uid, previous.gid);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw asWriteError(error, target);
  }
  fsyncFolder(folder);
}

function readCurrent(target: string, maxBytes: number | undefined): { text: string | undefined; info: Stats | undefined } {
  const info = lstatOrUndefined(target);
  if (!info) return { text: undefined, info };
  if (!info.isFile()) throw new FileWriteError(`${target} is not a regular file; nothing was changed.`, target);
  if (maxBytes !== undefined && info.size > maxBytes) throw new FileWriteError(`${target} is larger than ${maxBytes} bytes; nothing was changed.`, target);
  try {
    return { text: readFileSync(target, "utf8"), info };
  } catch (error) {
    throw asWriteError(error, target);
  }
}

function modeFor(options: SafeWriteOptions, previous: Stats | undefined): number {
  if (options.secret) return 0o600;
  if (options.mode !== undefined) return options.mode;
  return previous ? previous.mode & 0o777 : 0o644;
}

/** Resolves, creates the folder, and checks trust: all before the lock, which lives in that folder. */
function prepare(path: string, options: SafeWriteOptions): string {
  const target = resolveWriteTarget(path, options.within);
  try {
    mkdirSync(dirname(target), { recursive: true, mode: options.dirMode ?? 0o700 });
  } catch (error) {
    throw asWriteError(error, dirname(target));
  }
  assertTrusted(target);
  return target;
}

/** Reads inside the lock, applies the edit, writes (or deletes) when it changed anything. */
function commit(target: string, edit: Edit, options: SafeWriteOptions): EditOutcome {
  const { text: before, info } = readCurrent(target, options.maxBytes);
  const after = edit(before, target);
  if (after === null) {
    if (before !== undefined) {
      try {
        unlinkSync(target);
      } catch (error) {
        throw asWriteError(error, target);
      }
      fsyncFolder(dirname(target));
    }
  } else if (after !== before || (info && (info.mode & 0o777) !== modeFor(options, info))) {
    replaceFile(target, after, modeFor(options, info), info);
  }
  return { target, before, after };
}

/** Edits the file at `path` under its lock; the edit sees the file as it is once the lock is held. */
export async function editFileSafe(path: string, edit: Edit, options: SafeWriteOptions = {}): Promise<EditOutcome> {
  const target = prepare(path, options);
  return withFileLock(target, () => commit(target, edit, options), options.lock);
}

export function editFileSafeSync(path: string, edit: Edit, options: SafeWriteOptions = {}): EditOutcome {
  const target = prepare(path, options);
  return withFileLockSync(target, () => commit(target, edit, options), options.lock);
}

/** Writes `text` whole (under the lock, atomically, synced). */
export function writeFileSafeSync(path: string, text: string, options: SafeWriteOptions = {}): EditOutcome {
  return editFileSafeSync(path, () => text, options);
}
