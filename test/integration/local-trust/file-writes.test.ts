// Writes that must not lose data: concurrent CLI edits of the companion's config each keep their
// server (the file is re-read under its lock), and a full disk fails with one sentence, leaving
// the original file and no temporary file behind.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/main/mcp/config/parse";
import { parseConfigText } from "../../../src/main/base/config-text";
import { cli } from "./cli-harness";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "local-trust-writes-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const names = (text: string) => parseConfig(parseConfigText(text), { expand: false }).servers.map((s) => s.name).sort();

describe("concurrent edits of the companion's config", { timeout: 180_000 }, () => {
  it("12 `servers add` processes at once: every one is in the file", async () => {
    const path = join(dir, "concurrent", "mcp.json");
    await mkdir(join(dir, "concurrent"), { mode: 0o700 });
    await writeFile(path, '{\n  // mine\n  "mcpServers": {}\n}\n', { mode: 0o600 });
    const wanted = Array.from({ length: 12 }, (_, i) => `s${String(i).padStart(2, "0")}`);
    const results = await Promise.all(wanted.map((name) => cli(["servers", "add", name, "--command", "echo", "--arg", name, "--config", path])));
    for (const r of results) expect(r).toMatchObject({ code: 0, stderr: "" });
    const text = await readFile(path, "utf8");
    expect(names(text)).toEqual(wanted);
    expect(text).toContain("// mine");
    // No lock or temporary file is left beside it.
    expect(await readdir(join(dir, "concurrent"))).toEqual(["mcp.json"]);
  });
});

describe("a full disk", { timeout: 60_000 }, () => {
  const mount = join(tmpdir(), `local-trust-tmpfs-${process.pid}`);
  let mounted = false;
  beforeAll(async () => {
    await mkdir(mount, { recursive: true });
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", mount], { stdio: "pipe" });
      mounted = true;
    } catch (error) {
      // Only root (or CAP_SYS_ADMIN) mounts; the test says so below instead of passing silently.
      console.warn(`local-trust: cannot mount a tmpfs (${(error as Error).message.split("\n")[0]})`);
    }
  });
  afterAll(async () => {
    if (mounted) execFileSync("umount", [mount]);
    await rm(mount, { recursive: true, force: true });
  });

  it("ENOSPC: `servers add` prints one sentence, exits non-zero, the file is as it was, no temp file", async (context) => {
    if (!mounted) context.skip(); // reason printed in beforeAll: mounting needs root
    const path = join(mount, "mcp.json");
    const original = `${JSON.stringify({ mcpServers: { keep: { command: "echo" } } }, null, 2)}\n`;
    await writeFile(path, original, { mode: 0o600 });
    // Fill the rest of the 64 KiB, a byte at a time at the end.
    const filler = join(mount, "filler");
    await writeFile(filler, "");
    for (const size of [16384, 4096, 1024, 256, 64, 16, 1]) {
      for (;;) {
        try {
          await writeFile(filler, Buffer.alloc(size), { flag: "a" });
        } catch {
          break;
        }
      }
    }
    const result = await cli(["servers", "add", "big", "--command", "x".repeat(3000), "--config", path]);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^toolnexus-companion servers: The disk holding .*mcp\.json is full; free some space and try again\. Nothing was changed\.$/);
    expect(result.stderr).not.toMatch(/\bat .*\.ts:\d+/);
    expect(await readFile(path, "utf8")).toBe(original);
    expect((await readdir(mount)).sort()).toEqual(["filler", "mcp.json"]);
  });

  it("EROFS: a read-only file system is one sentence too, the file as it was", async (context) => {
    if (!mounted) context.skip(); // reason printed in beforeAll: mounting needs root
    const path = join(mount, "mcp.json");
    await rm(join(mount, "filler"), { force: true });
    const original = `${JSON.stringify({ mcpServers: { keep: { command: "echo" } } }, null, 2)}\n`;
    await writeFile(path, original, { mode: 0o600 });
    execFileSync("mount", ["-o", "remount,ro", mount]);
    try {
      const result = await cli(["servers", "remove", "keep", "--config", path]);
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toMatch(/^toolnexus-companion servers: .*mcp\.json is on a read-only file system; nothing was changed\.$/);
      expect(await readFile(path, "utf8")).toBe(original);
    } finally {
      execFileSync("mount", ["-o", "remount,rw", mount]);
    }
  });
});
