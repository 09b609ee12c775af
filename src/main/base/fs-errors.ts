// One sentence for each way the disk refuses a read or a write, said the same in the CLI, on the
// page and in the log. The codes are the ones a person can act on (free space, fix a permission,
// close a program); anything else keeps Node's own message.
import { asError } from "../../shared/unknown-value";

const SENTENCES: Record<string, (path: string) => string> = {
  ENOSPC: (p) => `The disk holding ${p} is full; free some space and try again. Nothing was changed.`,
  EDQUOT: (p) => `Your disk quota is used up where ${p} lives; free some space and try again. Nothing was changed.`,
  EACCES: (p) => `Permission denied for ${p}; check who owns it and its folder (ls -ld) and try again. Nothing was changed.`,
  EPERM: (p) => `The system does not allow changing ${p} (a read-only or immutable file, or another user's); nothing was changed.`,
  EROFS: (p) => `${p} is on a read-only file system; nothing was changed.`,
  EBUSY: (p) => `${p} is busy (another program holds it, or it is a mount point); close that program and try again. Nothing was changed.`,
};

/** The error's errno code, if it is a file system error. */
function fsErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^E[A-Z]+$/.test(code) ? code : undefined;
}

/**
 * One sentence for a file system error about `path` (else the error's own path, else "the file"),
 * or undefined when the code is not one of those above.
 */
export function describeFsError(error: unknown, path?: string): string | undefined {
  const code = fsErrorCode(error);
  if (!code || !(code in SENTENCES)) return undefined;
  const where = path ?? ((error as { path?: unknown }).path as string | undefined) ?? "the file";
  return SENTENCES[code](where);
}

/** A file the companion could not use, its message already the sentence to show. */
export class FileError extends Error {
  readonly code: string | undefined;
  readonly path: string;
  constructor(message: string, path: string, code?: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "FileError";
    this.path = path;
    this.code = code;
  }
}

/** A write that failed (nothing was changed); `code` and `path` kept. */
export class FileWriteError extends FileError {
  override name = "FileWriteError";
}

/** The sentence for any file error (ours, or a raw one with a known code); undefined for others. */
export function fileErrorSentence(error: unknown): string | undefined {
  if (error instanceof FileError) return error.message;
  return describeFsError(error);
}

/** `error` as a FileWriteError about `path` (its sentence when known, else Node's message). */
export function asWriteError(error: unknown, path: string): Error {
  if (error instanceof FileWriteError) return error;
  const sentence = describeFsError(error, path);
  if (sentence) return new FileWriteError(sentence, path, fsErrorCode(error), error);
  return asError(error);
}
