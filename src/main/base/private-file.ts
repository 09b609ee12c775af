// Small files only this user may read (0600 in a 0700 folder), for values that must survive a
// restart without a system keychain. Created with O_EXCL so two starts never both write one, read
// with O_NOFOLLOW so a link planted in our folder is not followed, and refused when another user
// owns them or could read them: the message names the chmod that fixes it.
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { createNewFile, writeFileSafeSync } from "./safe-write";

/** Thrown for a file or folder we will not use; the message says what to run. */
class PrivateFileError extends Error {}

// Windows has no POSIX owner or mode bits to check; its profile folder is per-user already.
const POSIX = process.platform !== "win32";
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

function mode(bits: number): string {
  return (bits & 0o777).toString(8).padStart(4, "0");
}

function checkOwnerAndMode(path: string, info: { uid: number; mode: number }, kind: "file" | "folder"): void {
  if (!POSIX) return;
  const uid = process.getuid!();
  if (info.uid !== uid) throw new PrivateFileError(`${path} is owned by user ${info.uid}, not by you (user ${uid}); remove it (rm -rf ${path}) and start the companion again`);
  const open = kind === "file" ? info.mode & 0o077 : info.mode & 0o022;
  if (open !== 0) {
    const fix = kind === "file" ? "600" : "700";
    throw new PrivateFileError(`${path} can be ${kind === "file" ? "read" : "written"} by other users (mode ${mode(info.mode)}); run: chmod ${fix} ${path}`);
  }
}

/** Creates `dir` (0700) when missing; refuses one another user owns or can write. */
function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = statSync(dir);
  if (!info.isDirectory()) throw new PrivateFileError(`${dir} is not a folder`);
  checkOwnerAndMode(dir, info, "folder");
}

/** The file's text, or undefined when it does not exist. Throws PrivateFileError for one we must not trust. */
export function readPrivateFile(path: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw new PrivateFileError(`${path} is a symbolic link; remove it (rm ${path}) and start the companion again`);
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new PrivateFileError(`${path} is not a regular file`);
    checkOwnerAndMode(dirname(path), statSync(dirname(path)), "folder");
    checkOwnerAndMode(path, info, "file");
    if (info.size > maxBytes) throw new PrivateFileError(`${path} is larger than ${maxBytes} bytes; it is not ours`);
    const buffer = Buffer.alloc(Math.max(0, info.size));
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` to a new file (0600); false when the file already exists (another start won the
 * race: read theirs). The folder is made private first. The one safe writer does the writing
 * (O_EXCL, no link followed, synced with its folder).
 */
export function createPrivateFile(path: string, text: string): boolean {
  ensurePrivateDir(dirname(path));
  try {
    createNewFile(path, text, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  return true;
}

/** Replaces the file's content atomically, under its lock, through the one safe writer (0600). */
export function replacePrivateFile(path: string, text: string): void {
  ensurePrivateDir(dirname(path));
  writeFileSafeSync(path, text, { secret: true, dirMode: 0o700 });
}
