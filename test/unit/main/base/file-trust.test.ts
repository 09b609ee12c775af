// The trust rule (OpenSSH's for ~/.ssh): the file and its folder are the person's (or root's) and
// not writable by group or others; a symlink is judged at its target too.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assertTrusted, trustProblem, UntrustedFileError } from "../../../../src/main/base/file-trust";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "file-trust-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("trustProblem", () => {
  it("a private file in a private folder is trusted; a missing file is judged by its folder", () => {
    writeFileSync(join(dir, "ok.json"), "{}", { mode: 0o644 });
    expect(trustProblem(join(dir, "ok.json"))).toBeUndefined();
    expect(trustProblem(join(dir, "missing.json"))).toBeUndefined();
    chmodSync(dir, 0o777);
    expect(trustProblem(join(dir, "missing.json"))).toBe(`The folder ${dir} can be changed by every user (mode 0777), so the companion does not trust it; run: chmod go-w ${dir}`);
  });

  it("a group-writable file names its mode and the chmod", () => {
    const path = join(dir, "g.json");
    writeFileSync(path, "{}");
    chmodSync(path, 0o620);
    expect(trustProblem(path)).toBe(`The file ${path} can be changed by its group (mode 0620), so the companion does not trust it; run: chmod go-w ${path}`);
    expect(() => assertTrusted(path)).toThrow(UntrustedFileError);
  });

  it("a file another user owns is refused", () => {
    const path = join(dir, "theirs.json");
    writeFileSync(path, "{}");
    const uid = process.getuid!();
    // As root, give the file to nobody; otherwise judge it as a person with another uid would.
    if (uid === 0) chownSync(path, 65534, 65534);
    const viewer = uid === 0 ? 0 : uid + 1;
    const owner = uid === 0 ? 65534 : uid;
    // (Not as root, the folder is the first thing judged, and it is "another user's" too.)
    const where = uid === 0 ? `The file ${path}` : `The folder ${dir}`;
    expect(trustProblem(path, { uid: viewer })).toBe(`${where} belongs to another user (uid ${owner}), so the companion does not trust it; if it is yours, run: chown ${viewer} ${uid === 0 ? path : dir}`);
  });

  it("a symlink is judged at the file it points to and that file's folder", () => {
    const open = join(dir, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    writeFileSync(join(open, "real.json"), "{}");
    const safe = join(dir, "safe");
    mkdirSync(safe, { mode: 0o700 });
    symlinkSync(join(open, "real.json"), join(safe, "link.json"));
    expect(trustProblem(join(safe, "link.json"))).toMatch(new RegExp(`^The folder ${open} can be changed by every user`));
  });
});
