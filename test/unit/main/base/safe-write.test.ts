// The one safe writer: the file is synced before the rename and the folder after it; a failed write
// leaves the target as it was and no temporary file; modes; a backup never follows a link.
import * as realFs from "node:fs";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const calls: string[] = [];
const fdPaths = new Map<number, string>();
let failWriteOf: RegExp | undefined;

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof realFs>();
  return {
    ...fs,
    openSync: vi.fn((path: realFs.PathLike, ...rest: unknown[]) => {
      const fd = (fs.openSync as (...a: unknown[]) => number)(path, ...rest);
      fdPaths.set(fd, String(path));
      return fd;
    }),
    writeSync: vi.fn((fd: number, ...rest: unknown[]) => {
      if (failWriteOf?.test(fdPaths.get(fd) ?? "")) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28, syscall: "write" });
      return (fs.writeSync as (...a: unknown[]) => number)(fd, ...rest);
    }),
    fsyncSync: vi.fn((fd: number) => {
      calls.push(`fsync ${fdPaths.get(fd)}`);
      return fs.fsyncSync(fd);
    }),
    renameSync: vi.fn((from: realFs.PathLike, to: realFs.PathLike) => {
      calls.push(`rename ${String(from)} -> ${String(to)}`);
      return fs.renameSync(from, to);
    }),
  };
});

const { createNewFile, editFileSafe, writeFileSafeSync } = await import("../../../../src/main/base/safe-write");
const { FileWriteError } = await import("../../../../src/main/base/fs-errors");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "safe-write-"));
  calls.length = 0;
  failWriteOf = undefined;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("safe writer", () => {
  it("syncs the temporary file, renames it over the target, then syncs the folder", () => {
    const path = join(dir, "a.json");
    writeFileSafeSync(path, "one\n");
    expect(readFileSync(path, "utf8")).toBe("one\n");
    const temp = calls[0].replace(/^fsync /, "");
    expect(temp).toMatch(new RegExp(`^${dir}/\\.a\\.json\\.\\d+\\.[0-9a-f]{8}\\.tmp$`));
    expect(calls).toEqual([`fsync ${temp}`, `rename ${temp} -> ${path}`, `fsync ${dir}`]);
  });

  it("a write that fails (ENOSPC) leaves the target as it was and no temporary file; the error is one sentence", async () => {
    const path = join(dir, "a.json");
    writeFileSync(path, "before\n", { mode: 0o600 });
    failWriteOf = /\.tmp$/;
    const failed = await editFileSafe(path, () => "after\n").catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(FileWriteError);
    expect(failed).toMatchObject({ code: "ENOSPC", message: `The disk holding ${path} is full; free some space and try again. Nothing was changed.` });
    expect(readFileSync(path, "utf8")).toBe("before\n");
    expect(readdirSync(dir)).toEqual(["a.json"]);
  });

  it("keeps an existing file's mode; a secret ends 0600; a new file is 0644 unless a mode is given", () => {
    const kept = join(dir, "kept.json");
    writeFileSync(kept, "x", { mode: 0o640 });
    writeFileSafeSync(kept, "y");
    expect(statSync(kept).mode & 0o777).toBe(0o640);
    const secret = join(dir, "secret.json");
    writeFileSync(secret, "x", { mode: 0o644 });
    writeFileSafeSync(secret, "token", { secret: true });
    expect(statSync(secret).mode & 0o777).toBe(0o600);
    writeFileSafeSync(join(dir, "new.json"), "n");
    expect(statSync(join(dir, "new.json")).mode & 0o777).toBe(0o644);
    writeFileSafeSync(join(dir, "own.json"), "n", { mode: 0o600 });
    expect(statSync(join(dir, "own.json")).mode & 0o777).toBe(0o600);
  });

  it("writes a symlinked file at its target and keeps the link; refuses a target outside `within`", () => {
    const real = join(dir, "real.json");
    writeFileSync(real, "old");
    const inner = join(dir, "inner");
    realFs.mkdirSync(inner);
    symlinkSync(real, join(inner, "link.json"));
    writeFileSafeSync(join(inner, "link.json"), "new");
    expect(lstatSync(join(inner, "link.json")).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toBe("new");
    expect(() => writeFileSafeSync(join(inner, "link.json"), "evil", { within: inner })).toThrow(/outside .*inner; the companion writes only inside the folder it was given/);
    expect(readFileSync(real, "utf8")).toBe("new");
  });

  it("a backup name never follows or replaces a link", () => {
    const victim = join(dir, "victim");
    writeFileSync(victim, "keep");
    symlinkSync(victim, join(dir, "a.json.bak-1"));
    expect(() => createNewFile(join(dir, "a.json.bak-1"), "backup")).toThrow(expect.objectContaining({ code: "EEXIST" }));
    expect(readFileSync(victim, "utf8")).toBe("keep");
  });
});
