// An advisory lock beside a file: `<file>.lock`, created with O_EXCL (whoever creates it holds
// it), holding the owner's pid, a random token and the time. Every writer of one of the
// companion's files (the app, each CLI run, the page's handlers) takes it around read-modify-
// write, so concurrent edits queue instead of the last one erasing the others. A lock is stale —
// broken by the next writer — when its pid is no longer running or it is older than `staleMs`
// (a holder never needs that long: it writes a few kilobytes). Waiting is bounded; then a sentence
// says who holds it and how to clear it.
import { randomBytes } from "node:crypto";
import { closeSync, constants, lstatSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { asWriteError, FileError } from "./fs-errors";

export interface LockOptions {
  /** How long to wait for another holder before giving up. */
  waitMs?: number;
  /** A lock older than this is a crashed holder's, whatever its pid. */
  staleMs?: number;
}

const DEFAULT_LOCK_WAIT_MS = 10_000;
const DEFAULT_LOCK_STALE_MS = 30_000;
/** A breaker older than this died while breaking; the next one removes it. */
const BREAKER_STALE_MS = 5_000;

export class FileLockError extends FileError {
  override name = "FileLockError";
}

interface HeldLock {
  path: string;
  token: string;
}

export const lockPathOf = (target: string) => `${target}.lock`;

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Creates `path` exclusively with `text`; false when it exists. A half-made file is removed; an
 * error names `about` (the file being changed, which is what the person knows).
 */
function createExclusive(path: string, text: string, about: string = path): boolean {
  let fd: number;
  try {
    fd = openSync(path, CREATE, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw asWriteError(error, about);
  }
  try {
    writeSync(fd, text);
  } catch (error) {
    closeSync(fd);
    unlinkSync(path);
    throw asWriteError(error, about);
  }
  closeSync(fd);
  return true;
}

function tryAcquire(lock: string, target: string): HeldLock | undefined {
  const token = randomBytes(8).toString("hex");
  const body = `${JSON.stringify({ pid: process.pid, token, at: new Date().toISOString() })}\n`;
  return createExclusive(lock, body, target) ? { path: lock, token } : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface Seen {
  ino: number;
  text: string;
  pid?: number;
  ageMs: number;
}

function look(path: string): Seen | undefined {
  try {
    const info = lstatSync(path);
    const text = readFileSync(path, "utf8");
    let pid: number | undefined;
    try {
      const parsed = JSON.parse(text) as { pid?: unknown };
      if (Number.isSafeInteger(parsed.pid) && (parsed.pid as number) > 0) pid = parsed.pid as number;
    } catch {
      // empty (its maker is between create and write) or not ours: judged by age alone
    }
    return { ino: info.ino, text, pid, ageMs: Date.now() - info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw asWriteError(error, path);
  }
}

const isStale = (seen: Seen, staleMs: number) => seen.ageMs > staleMs || (seen.pid !== undefined && !isRunning(seen.pid));

/**
 * Removes the lock if it is stale. Breakers queue on `<lock>.break` and look again once they hold
 * it, so two of them never remove a lock a third has just taken.
 */
function breakIfStale(lock: string, staleMs: number): void {
  const first = look(lock);
  if (!first || !isStale(first, staleMs)) return;
  const breaker = `${lock}.break`;
  if (!createExclusive(breaker, `${process.pid}\n`)) {
    const other = look(breaker);
    if (other && other.ageMs > BREAKER_STALE_MS) unlinkQuietly(breaker);
    return;
  }
  try {
    const again = look(lock);
    if (again && again.ino === first.ino && again.text === first.text && isStale(again, staleMs)) unlinkQuietly(lock);
  } finally {
    unlinkQuietly(breaker);
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function busy(lock: string, waitMs: number): FileLockError {
  const seen = look(lock);
  const who = seen?.pid !== undefined ? `process ${seen.pid}` : "another program";
  return new FileLockError(
    `${lock.replace(/\.lock$/, "")} is being changed by ${who} (it holds ${lock}); waited ${Math.round(waitMs / 1000)} s. Try again; if no other toolnexus-companion is running, remove ${lock}.`,
    lock,
  );
}

/** Releases a lock this process holds; a lock someone broke and retook meanwhile is left alone. */
function releaseLock(held: HeldLock): void {
  const seen = look(held.path);
  if (seen && seen.text.includes(`"token":"${held.token}"`)) unlinkQuietly(held.path);
}

const pause = () => 5 + Math.floor(Math.random() * 20);

/** One try: runs `run` under the lock and releases it, all in this tick; `miss` when it is held. */
function attempt<T>(lock: string, target: string, run: () => T): { ran: true; value: T } | { ran: false } {
  const held = tryAcquire(lock, target);
  if (!held) return { ran: false };
  try {
    return { ran: true, value: run() };
  } finally {
    releaseLock(held);
  }
}

/**
 * Runs `run` under the lock on `target`, waiting (asynchronously) at most `waitMs` for it. `run`
 * is synchronous and runs in the tick the lock is taken: the lock is never held across an await,
 * so a synchronous writer of the same file in this process can never wait on a holder that
 * cannot go on.
 */
export async function withFileLock<T>(target: string, run: () => T, options: LockOptions = {}): Promise<T> {
  const tryLock = locker(target, run, options);
  for (;;) {
    const result = tryLock();
    if (result.ran) return result.value;
    await new Promise((resolve) => setTimeout(resolve, pause()));
  }
}

/**
 * One try at the lock, for both waiting styles: runs `run` if the lock was free; otherwise breaks
 * a stale lock, or throws once `waitMs` has passed since the first try.
 */
function locker<T>(target: string, run: () => T, options: LockOptions): () => { ran: true; value: T } | { ran: false } {
  const lock = lockPathOf(target);
  const waitMs = options.waitMs ?? DEFAULT_LOCK_WAIT_MS;
  const started = Date.now();
  return () => {
    const result = attempt(lock, target, run);
    if (result.ran) return result;
    breakIfStale(lock, options.staleMs ?? DEFAULT_LOCK_STALE_MS);
    if (Date.now() - started > waitMs) throw busy(lock, waitMs);
    return { ran: false };
  };
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** The same for synchronous callers (the rules file, the process registry): it blocks while it waits. */
export function withFileLockSync<T>(target: string, run: () => T, options: LockOptions = {}): T {
  const tryLock = locker(target, run, options);
  for (;;) {
    const result = tryLock();
    if (result.ran) return result.value;
    Atomics.wait(sleeper, 0, 0, pause());
  }
}
