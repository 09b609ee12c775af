// `toolnexus-companion servers add|edit|enable|disable|remove` through the real launcher: each
// edit keeps the file's comments, unknown keys and other servers; a refused edit writes nothing.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/main/mcp/config/parse";
import { parseConfigText } from "../../src/main/base/config-text";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "bin/toolnexus-companion");

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "servers-edit-"));
  path = join(dir, "mcp.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, "servers", ...args, "--config", path], { timeout: 30_000 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

const ORIGINAL = `{
  // servers I set up by hand
  "mcpServers": {
    "files": { "command": "npx", "args": ["-y", "files"], "myNote": "keep" }
  },
  "somethingElse": { "keep": true }
}
`;

describe("servers add/remove/enable/disable from the CLI", () => {
  it("add then remove gives back the original bytes; comments and unknown keys survive the add", async () => {
    await writeFile(path, ORIGINAL, { mode: 0o640 });
    const added = await cli("add", "git", "--command", "uvx", "--arg", "mcp-git", "--arg=--repo=.", "--env", "GIT_DIR=/tmp/x=y");
    expect(added).toMatchObject({ code: 0, stderr: "" });
    expect(added.stdout).toContain('"git" added');
    const text = await readFile(path, "utf8");
    expect(text).toContain("// servers I set up by hand");
    expect(text).toContain('"myNote": "keep"');
    expect(text).toContain('"somethingElse": { "keep": true }');
    const git = parseConfig(parseConfigText(text), { expand: false }).servers.find((s) => s.name === "git");
    expect(git).toMatchObject({ command: "uvx", args: ["mcp-git", "--repo=."], env: { GIT_DIR: "/tmp/x=y" } });
    // The companion's config is written 0600 whatever mode it had: its servers carry header and env values.
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    const remote = await cli("add", "api", "--url", "https://api.example.com/mcp", "--header", "Authorization=Bearer ${secret:api}");
    expect(remote.code).toBe(0);
    expect(await cli("disable", "api")).toMatchObject({ code: 0 });
    expect(parseConfig(parseConfigText(await readFile(path, "utf8")), { expand: false }).servers.find((s) => s.name === "api")?.enabled).toBe(false);
    expect(await cli("enable", "api")).toMatchObject({ code: 0 });
    expect(await cli("remove", "api")).toMatchObject({ code: 0 });
    expect(await cli("remove", "git")).toMatchObject({ code: 0 });
    expect(await readFile(path, "utf8")).toBe(ORIGINAL);
  });

  it("refuses what would not load, and writes nothing", async () => {
    await writeFile(path, ORIGINAL);
    const clash = await cli("add", "files", "--command", "x");
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(/already exists.*\n.*Nothing was written/);
    expect((await cli("add", "bad", "--url", "ftp://example.com")).stderr).toMatch(/http\(s\)/);
    expect((await cli("remove", "ghost")).stderr).toMatch(/no server named "ghost"/);
    expect(await readFile(path, "utf8")).toBe(ORIGINAL);
    await writeFile(path, '{ "mcpServers": { , } }');
    const broken = await cli("add", "x", "--command", "x");
    expect(broken.stderr).toMatch(/line 1, column/);
    expect(await readFile(path, "utf8")).toBe('{ "mcpServers": { , } }');
  });

  it("edit changes the given fields only", async () => {
    await writeFile(path, ORIGINAL);
    expect(await cli("edit", "files", "--arg=-y", "--arg", "files@2")).toMatchObject({ code: 0 });
    const text = await readFile(path, "utf8");
    expect(text).toContain('"myNote": "keep"');
    expect(parseConfig(parseConfigText(text), { expand: false }).servers[0]).toMatchObject({ command: "npx", args: ["-y", "files@2"] });
  });
});
