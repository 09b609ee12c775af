// The advisory lock: a dead holder's lock or one older than the stale age is broken; a live
// holder is waited for, and the wait ends with a sentence naming the holder and the lock.
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileLockError, lockPathOf, withFileLock, withFileLockSync } from "../../../../src/main/base/file-lock";
import { describeFsError, fileErrorSentence } from "../../../../src/main/base/fs-errors";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "file-lock-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A pid that ran and is gone. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid!;
}

describe("file lock", () => {
  it("breaks a lock whose pid is gone", async () => {
    const target = join(dir, "f.json");
    writeFileSync(lockPathOf(target), JSON.stringify({ pid: deadPid(), token: "x" }));
    await expect(withFileLock(target, () => 1, { waitMs: 2000 })).resolves.toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("breaks a lock older than the stale age even if its pid runs", () => {
    const target = join(dir, "f.json");
    writeFileSync(lockPathOf(target), JSON.stringify({ pid: process.pid, token: "x" }));
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPathOf(target), old, old);
    expect(withFileLockSync(target, () => 2, { waitMs: 2000, staleMs: 30_000 })).toBe(2);
  });

  it("waits for a live, fresh lock, then gives up with a sentence", async () => {
    const target = join(dir, "f.json");
    writeFileSync(lockPathOf(target), JSON.stringify({ pid: process.pid, token: "held" }));
    const started = Date.now();
    const failed = await withFileLock(target, () => 3, { waitMs: 300 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(failed).toBeInstanceOf(FileLockError);
    expect((failed as Error).message).toBe(
      `${target} is being changed by process ${process.pid} (it holds ${lockPathOf(target)}); waited 0 s. Try again; if no other toolnexus-companion is running, remove ${lockPathOf(target)}.`,
    );
    expect(fileErrorSentence(failed)).toBe((failed as Error).message);
  });

  it("the lock is released when the edit throws", async () => {
    const target = join(dir, "f.json");
    await expect(withFileLock(target, () => { throw new Error("no"); })).rejects.toThrow("no");
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("describeFsError", () => {
  it("one sentence for each code a person can act on; undefined for the others", () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(describeFsError(err("ENOSPC"), "/x")).toBe("The disk holding /x is full; free some space and try again. Nothing was changed.");
    expect(describeFsError(err("EDQUOT"), "/x")).toMatch(/^Your disk quota is used up where \/x lives/);
    expect(describeFsError(err("EACCES"), "/x")).toMatch(/^Permission denied for \/x;/);
    expect(describeFsError(err("EPERM"), "/x")).toMatch(/^The system does not allow changing \/x/);
    expect(describeFsError(err("EROFS"), "/x")).toBe("/x is on a read-only file system; nothing was changed.");
    expect(describeFsError(err("EBUSY"), "/x")).toMatch(/^\/x is busy/);
    expect(describeFsError(Object.assign(err("ENOSPC"), { path: "/y" }))).toMatch(/^The disk holding \/y is full/);
    expect(describeFsError(err("ENOENT"), "/x")).toBeUndefined();
    expect(describeFsError(new Error("plain"))).toBeUndefined();
  });
});
