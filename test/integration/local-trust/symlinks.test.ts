// Symlinks on the way to a file the companion writes: a symlinked config (dotfiles) is edited at
// the file it points to and stays a link; `agents connect --project DIR` refuses a file whose
// link (its own, or its folder's) leads out of DIR, and leaves the outside file as it was.
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli } from "./cli-harness";

let root: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "local-trust-links-"));
  const home = join(root, "home");
  await mkdir(home);
  const { TOOLNEXUS_COMPANION_URL: _u, CLAUDE_CONFIG_DIR: _c, CODEX_HOME: _x, TOOLNEXUS_CONFIG: _t, ...rest } = process.env;
  env = { ...rest, PATH: dirname(process.execPath), HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, ".config") };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("a symlinked companion config", { timeout: 60_000 }, () => {
  it("`servers add` edits the file the link points to; the link stays a link", async () => {
    const dotfiles = join(root, "dotfiles");
    await mkdir(dotfiles);
    const real = join(dotfiles, "mcp.json");
    await writeFile(real, '{\n  // in git\n  "mcpServers": {}\n}\n', { mode: 0o600 });
    const folder = join(root, "home", ".config", "toolnexus-companion");
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const link = join(folder, "mcp.json");
    await symlink(real, link);
    const result = await cli(["servers", "add", "git", "--command", "uvx", "--config", link], { env });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(real);
    const text = await readFile(real, "utf8");
    expect(text).toContain("// in git");
    expect(text).toContain('"git"');
    expect(await readdir(folder)).toEqual(["mcp.json"]);
  });
});

describe("agents connect --project DIR", { timeout: 60_000 }, () => {
  const outsideText = '{ "mcpServers": { "mine": { "command": "keep" } } }\n';

  it("DIR/.cursor/mcp.json a symlink to a file outside DIR: refused, the outside file unchanged", async () => {
    const project = join(root, "project");
    const outside = join(root, "elsewhere");
    await mkdir(join(project, ".cursor"), { recursive: true });
    await mkdir(outside);
    const target = join(outside, "settings.json");
    await writeFile(target, outsideText);
    await symlink(target, join(project, ".cursor", "mcp.json"));
    const result = await cli(["agents", "connect", "cursor", "--project", project], { env, cwd: project });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`which is outside ${project}`);
    expect(result.stderr).not.toMatch(/\bat .*\.ts:\d+/);
    expect(await readFile(target, "utf8")).toBe(outsideText);
    expect(await readdir(outside)).toEqual(["settings.json"]);
    expect((await lstat(join(project, ".cursor", "mcp.json"))).isSymbolicLink()).toBe(true);
  });

  it("DIR/.cursor a symlinked folder outside DIR: refused too", async () => {
    const project = join(root, "project");
    const outside = join(root, "elsewhere");
    await mkdir(project);
    await mkdir(outside);
    await writeFile(join(outside, "mcp.json"), outsideText);
    await symlink(outside, join(project, ".cursor"));
    const result = await cli(["agents", "connect", "cursor", "--project", project], { env, cwd: project });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`which is outside ${project}`);
    expect(await readFile(join(outside, "mcp.json"), "utf8")).toBe(outsideText);
    expect(await readdir(outside)).toEqual(["mcp.json"]);
  });

  it("a link inside DIR is followed: the file it points to is edited, the link kept", async () => {
    const project = join(root, "project");
    await mkdir(join(project, ".cursor"), { recursive: true });
    await mkdir(join(project, "shared"));
    const target = join(project, "shared", "cursor.json");
    await writeFile(target, outsideText);
    await symlink(target, join(project, ".cursor", "mcp.json"));
    const result = await cli(["agents", "connect", "cursor", "--project", project], { env, cwd: project });
    expect(result.code).toBe(0);
    expect((await lstat(join(project, ".cursor", "mcp.json"))).isSymbolicLink()).toBe(true);
    expect(await readFile(target, "utf8")).toContain('"toolnexus"');
    // The backup sits beside the file written, never behind a link.
    expect((await readdir(join(project, "shared"))).some((n) => n.startsWith("cursor.json.bak-"))).toBe(true);
  });
});
