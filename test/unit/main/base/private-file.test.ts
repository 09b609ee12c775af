// The gateway token's file without a keychain: created once with O_EXCL (a second create loses
// and reads the first), 0600 in a 0700 folder; a link, a file others can read and a folder others
// can write are refused with the command that fixes it.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPrivateFile, readPrivateFile, replacePrivateFile } from "../../../../src/main/base/private-file";
import { createMemoryStore, gatewayToken, GATEWAY_TOKEN_SECRET, rotateGatewayToken, tokenFileStore, tokenPlace } from "../../../../src/main/secrets";

const root = mkdtempSync(join(tmpdir(), "tnc-private-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("private files", () => {
  it("creates once (0600, folder 0700), refuses a second create, replaces atomically", () => {
    const file = join(root, "a", "state", "token");
    expect(createPrivateFile(file, "one\n")).toBe(true);
    expect(createPrivateFile(file, "two\n")).toBe(false);
    expect(readPrivateFile(file, 100)).toBe("one\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, "a", "state")).mode & 0o777).toBe(0o700);
    replacePrivateFile(file, "three\n");
    expect(readPrivateFile(file, 100)).toBe("three\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("refuses a symbolic link, a readable file and a folder others can write, saying what to run", () => {
    const dir = join(root, "b");
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, "elsewhere"), "x", { mode: 0o600 });
    symlinkSync(join(dir, "elsewhere"), join(dir, "link"));
    expect(() => readPrivateFile(join(dir, "link"), 100)).toThrow(`${join(dir, "link")} is a symbolic link; remove it`);
    writeFileSync(join(dir, "open"), "x", { mode: 0o640 });
    chmodSync(join(dir, "open"), 0o640);
    expect(() => readPrivateFile(join(dir, "open"), 100)).toThrow(`can be read by other users (mode 0640); run: chmod 600 ${join(dir, "open")}`);
    chmodSync(dir, 0o777);
    expect(() => readPrivateFile(join(dir, "elsewhere"), 100)).toThrow(`${dir} can be written by other users (mode 0777); run: chmod 700 ${dir}`);
    expect(() => createPrivateFile(join(dir, "new"), "x")).toThrow("run: chmod 700");
  });
});

describe("the gateway token without a keychain", () => {
  it("is generated once into the file, read back after a 'restart', rotated in place, and says where it lives", async () => {
    const file = join(root, "c", "gateway-token");
    const first = await gatewayToken(tokenFileStore(createMemoryStore("no keychain"), file));
    const again = tokenFileStore(createMemoryStore("no keychain"), file);
    expect(await gatewayToken(again)).toBe(first);
    expect(tokenPlace(again)).toEqual({ kind: "file", path: file });
    const rotated = await rotateGatewayToken(again);
    expect(rotated).not.toBe(first);
    expect(await tokenFileStore(createMemoryStore("x"), file).get(GATEWAY_TOKEN_SECRET)).toBe(rotated);
    // Other secrets stay in memory: nothing but the token is written.
    await again.set("api-key", "value-1234567");
    expect(readPrivateFile(file, 4096)).toBe(`${rotated}\n`);
  });

  it("a refused file leaves the token for this session and says why", async () => {
    const file = join(root, "d", "gateway-token");
    await gatewayToken(tokenFileStore(createMemoryStore("x"), file));
    chmodSync(file, 0o644);
    const store = tokenFileStore(createMemoryStore("x"), file);
    await expect(gatewayToken(store)).rejects.toThrow(`run: chmod 600 ${file}`);
    expect(tokenPlace(store)).toEqual({ kind: "session", why: expect.stringContaining(`chmod 600 ${file}`) });
  });
});
