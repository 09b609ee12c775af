// Whether a file on disk can be trusted to say what the companion runs or answers: its config
// (the commands it starts, as the person running it — root, at times), rules (forms answered
// without asking), history and state files. The rule is OpenSSH's for ~/.ssh (StrictModes): the
// file and the folder it sits in belong to the person running the companion (or to root), and
// neither is writable by the group or by others. A folder others can write lets them plant or
// replace the file; a file others can write lets them change it. A symlink is judged at the file it
// points to, and that file's folder, too. Windows has no such modes: nothing is checked there.
import { lstatSync, realpathSync, statSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { FileError } from "./fs-errors";

export class UntrustedFileError extends FileError {
  override name = "UntrustedFileError";
}

export interface TrustOptions {
  /** The person's uid (the process's own by default); tests pass another. */
  uid?: number;
}

const octal = (mode: number) => `0${(mode & 0o7777).toString(8).padStart(3, "0")}`;

function judge(path: string, info: Stats, uid: number, kind: "file" | "folder"): string | undefined {
  if (info.uid !== uid && info.uid !== 0) {
    return `The ${kind} ${path} belongs to another user (uid ${info.uid}), so the companion does not trust it; if it is yours, run: chown ${uid} ${path}`;
  }
  if ((info.mode & 0o022) !== 0) {
    const who = (info.mode & 0o002) !== 0 ? "every user" : "its group";
    return `The ${kind} ${path} can be changed by ${who} (mode ${octal(info.mode)}), so the companion does not trust it; run: chmod go-w ${path}`;
  }
  return undefined;
}

function statOrUndefined(path: string, follow: boolean): Stats | undefined {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/**
 * Why `path` (and its folder) cannot be trusted, as one sentence that says what to run; undefined
 * when it can, or when there is nothing to judge yet (a file that does not exist: its folder is
 * still judged, since whoever can write there can plant it).
 */
export function trustProblem(path: string, options: TrustOptions = {}): string | undefined {
  const uid = options.uid ?? process.getuid?.();
  if (uid === undefined) return undefined;
  const places = [path];
  const link = statOrUndefined(path, false);
  if (link?.isSymbolicLink()) {
    try {
      places.push(realpathSync(path));
    } catch {
      // A link to nothing: reading it finds no file; the link's own folder is still judged.
    }
  }
  for (const place of places) {
    const folder = dirname(place);
    const folderInfo = statOrUndefined(folder, true);
    const folderProblem = folderInfo && judge(folder, folderInfo, uid, "folder");
    if (folderProblem) return folderProblem;
    const info = statOrUndefined(place, true);
    const problem = info && judge(place, info, uid, "file");
    if (problem) return problem;
  }
  return undefined;
}

/** Throws UntrustedFileError with the sentence of `trustProblem`. */
export function assertTrusted(path: string, options: TrustOptions = {}): void {
  const problem = trustProblem(path, options);
  if (problem) throw new UntrustedFileError(problem, path);
}
