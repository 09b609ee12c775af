// `toolnexus-companion agents list|connect|disconnect` end to end: the real launcher in a child
// process, HOME / XDG_CONFIG_HOME / APPDATA pointing at a temporary copy of test/fixtures/agents.
import { execFile } from "node:child_process";
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "bin/toolnexus-companion");
const FIXTURE = join(ROOT, "test/fixtures/agents");

let root: string;
let home: string;
let project: string;
let env: NodeJS.ProcessEnv;

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, "agents", ...args], { env, cwd: project, timeout: 30_000 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

/** Every file under `dir` with its bytes, so "nothing else changed" is one comparison. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out[path.slice(dir.length)] = await readFile(path, "latin1");
  }
  return out;
}

const withoutBackups = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([path]) => !/\.bak-\d{8}T\d{6}Z(-\d+)?$/.test(path)));
const backups = async (file: string) => (await readdir(dirname(file))).filter((n) => n.startsWith(`${basename(file)}.bak-`));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "agents-cli-"));
  await cp(FIXTURE, root, { recursive: true });
  home = join(root, "home");
  project = join(root, "project");
  const { TOOLNEXUS_COMPANION_URL: _u, CLAUDE_CONFIG_DIR: _c, CODEX_HOME: _x, ...rest } = process.env;
  // PATH without a `toolnexus-companion`, so entries name this checkout's launcher.
  env = { ...rest, PATH: dirname(process.execPath), HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, ".config"), APPDATA: join(home, "AppData", "Roaming") };
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("agents CLI in a temporary HOME", { timeout: 180_000 }, () => {
  it("list --json: every agent found in the fixture HOME, none connected, hooks not installed", async () => {
    const { stdout, code } = await cli("list", "--json");
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<{ id: string; found: boolean; connections: unknown[]; hook?: { installed: string[] } }>;
    expect(rows.map((r) => r.id)).toEqual(["claude-desktop", "claude-code", "cursor", "vscode", "windsurf", "zed", "opencode", "codex", "gemini"]);
    for (const r of rows) expect(r).toMatchObject({ found: true, connections: [] });
    expect(rows.filter((r) => r.hook).map((r) => [r.id, r.hook!.installed])).toEqual([["claude-code", []], ["codex", []]]);
  });

  it("connect --dry-run prints the change and writes nothing (no file, no backup)", async () => {
    const before = await snapshot(root);
    const { stdout, code } = await cli("connect", "cursor", "--dry-run");
    expect(code).toBe(0);
    expect(stdout).toContain(`--- ${join(home, ".cursor/mcp.json")}`);
    expect(stdout).toMatch(/^\+ {4}"toolnexus": \{$/m);
    expect(stdout).toContain(`+      "command": "node",`);
    expect(stdout).toContain(`+        "${BIN}",`);
    expect(stdout).toContain("Dry run: nothing was written.");
    const codex = await cli("connect", "codex", "--hooks", "--dry-run");
    expect(codex.stdout).toContain("+[mcp_servers.toolnexus]");
    expect(codex.stdout).toContain(`+            "command": "node ${BIN} hook codex",`);
    expect(await snapshot(root)).toEqual(before);
  });

  it("connect writes the entry with a backup of the original; a second connect is a no-op; disconnect gives back every byte", async () => {
    const before = await snapshot(root);
    const file = join(home, ".cursor/mcp.json");
    const original = await readFile(file, "utf8");
    const first = await cli("connect", "cursor");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/adds "toolnexus" — the stdio `connect` shim, which reads the gateway token from the keychain/);
    const [saved] = await backups(file);
    expect(saved).toMatch(/^mcp\.json\.bak-\d{8}T\d{6}Z$/);
    expect(await readFile(join(dirname(file), saved), "utf8")).toBe(original);
    const connected = await readFile(file, "utf8");
    expect(connected).toContain("// Global MCP servers for Cursor");
    // The shim asks as cursor, with cursor's own credential (http/agent-credential.ts).
    expect(connected).toContain(`"args": [\n        "${BIN}",\n        "connect",\n        "--agent",\n        "cursor"\n      ]`);

    const second = await cli("connect", "cursor");
    expect(second.stdout).toContain("Cursor is already connected; nothing changed.");
    expect(await readFile(file, "utf8")).toBe(connected);
    expect(await backups(file)).toHaveLength(1);

    const list = JSON.parse((await cli("list", "--json")).stdout) as Array<{ id: string; connections: Array<{ file: string; name: string }> }>;
    expect(list.find((r) => r.id === "cursor")!.connections).toEqual([{ file, name: "toolnexus", scope: "user" }]);

    const off = await cli("disconnect", "cursor");
    expect(off.code).toBe(0);
    expect(await readFile(file, "utf8")).toBe(original);
    await rm(join(dirname(file), saved));
    for (const name of await backups(file)) await rm(join(dirname(file), name));
    expect(await snapshot(root)).toEqual(before);
  });

  // Every writer's round trip is in test/unit/main/client-configs/writers.test.ts; here the launcher runs the
  // four kinds of file: strict JSON with hooks beside it, TOML with hooks.json, JSONC with inputs, V1 opencode.
  const SOME = ["claude-code", "codex", "vscode", "opencode"];
  it("connect, with hooks where the agent has them, then disconnect, leaves every file as it was", async () => {
    const before = withoutBackups(await snapshot(root));
    for (const id of SOME) {
      const hooks = id === "claude-code" || id === "codex" ? ["--hooks"] : [];
      const { code, stderr } = await cli("connect", id, ...hooks);
      expect(code, stderr).toBe(0);
    }
    const settings = JSON.parse(await readFile(join(home, ".claude/settings.json"), "utf8"));
    expect(settings.hooks.PermissionRequest).toHaveLength(2);
    expect(settings.hooks.PermissionRequest[0].matcher).toBe("Read");
    expect(settings.hooks.PermissionRequest[1]).toEqual({ matcher: "*", hooks: [{ type: "command", command: `node ${BIN} hook claude-code`, timeout: 60 }] });
    const codexHooks = JSON.parse(await readFile(join(home, ".codex/hooks.json"), "utf8"));
    expect(Object.keys(codexHooks.hooks)).toEqual(["PreToolUse", "Stop", "PermissionRequest"]);

    const list = JSON.parse((await cli("list", "--json")).stdout) as Array<{ id: string; connections: unknown[]; hook?: { installed: string[] } }>;
    expect(list.filter((r) => r.connections.length > 0).map((r) => r.id)).toEqual(["claude-code", "vscode", "opencode", "codex"]);
    expect(list.find((r) => r.id === "claude-code")!.hook!.installed).toEqual([join(home, ".claude/settings.json")]);
    expect(list.find((r) => r.id === "codex")!.hook!.installed).toEqual([join(home, ".codex/hooks.json")]);
    const human = await cli("list");
    expect(human.stdout).toMatch(/● Claude Code \(claude-code\) {2}connected\n {4}~\/\.claude\.json: "toolnexus"\n {4}permission hook: ~\/\.claude\/settings\.json/);

    // Without --hooks the hook stays, and the CLI says so.
    const plain = await cli("disconnect", "claude-code");
    expect(plain.stdout).toMatch(/permission hook is still installed \(~\/\.claude\/settings\.json\); `disconnect claude-code --hooks` removes it/);
    for (const id of SOME) {
      const hooks = id === "claude-code" || id === "codex" ? ["--hooks"] : [];
      const { code, stderr } = await cli("disconnect", id, ...hooks);
      expect(code, stderr).toBe(0);
    }
    const after = await snapshot(root);
    expect(withoutBackups(after)).toEqual(before);
    // A backup for each change to a file that existed: 4 configs and 2 hook files, connected and disconnected.
    expect(Object.keys(after).filter((p) => /\.(json|toml)\.bak-\d{8}T\d{6}Z(-\d+)?$/.test(p)).length).toBeGreaterThanOrEqual(12);
  });

  it("--project edits the project's files: .mcp.json and .claude/settings.json (created, then removed again)", async () => {
    const before = withoutBackups(await snapshot(root));
    const on = await cli("connect", "claude-code", "--hooks", "--project", project);
    expect(on.code, on.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(project, ".mcp.json"), "utf8")).mcpServers.toolnexus).toEqual({ type: "stdio", command: "node", args: [BIN, "connect", "--agent", "claude-code"] });
    expect((await stat(join(project, ".claude/settings.json"))).isFile()).toBe(true);
    const off = await cli("disconnect", "claude-code", "--hooks", "--project", project);
    expect(off.stdout).toContain("removes the PermissionRequest hook and the file, which held nothing else");
    await expect(stat(join(project, ".claude/settings.json"))).rejects.toMatchObject({ code: "ENOENT" });
    expect(withoutBackups(await snapshot(root))).toEqual(before);
  });

  it("no plaintext token unless asked: Zed over HTTP needs --literal-token, Claude Desktop has no HTTP, --literal-token elsewhere is refused", async () => {
    const before = await snapshot(root);
    const zed = await cli("connect", "zed", "--via", "http");
    expect(zed.code).toBe(2);
    expect(zed.stderr).toMatch(/Zed expands no variables in its settings, so over HTTP the gateway token would be written in plain text/);
    expect(zed.stderr).toContain("--via http --literal-token");
    const desktop = await cli("connect", "claude-desktop", "--via", "http");
    expect(desktop.code).toBe(2);
    expect(desktop.stderr).toMatch(/holds only local \(stdio\) servers/);
    const cursor = await cli("connect", "cursor", "--via", "http", "--literal-token");
    expect(cursor.code).toBe(2);
    const hookless = await cli("connect", "cursor", "--hooks");
    expect(hookless.code).toBe(1);
    expect(hookless.stderr).toMatch(/only Claude Code and Codex/);
    expect(await snapshot(root)).toEqual(before);
  });

  it("Zed with --literal-token writes the token it reads from TOOLNEXUS_COMPANION_TOKEN, and says so", async () => {
    env.TOOLNEXUS_COMPANION_TOKEN = "tok-literal-1234";
    const { code, stdout } = await cli("connect", "zed", "--via", "http", "--literal-token", "--dry-run");
    delete env.TOOLNEXUS_COMPANION_TOKEN;
    expect(code).toBe(0);
    expect(stdout).toContain("HTTP with the gateway token written in plain text");
    expect(stdout).toContain('+        "Authorization": "Bearer tok-literal-1234"');
  });

  it("VS Code over HTTP with a password input; TOOLNEXUS_COMPANION_URL moves the URL; a `toolnexus-companion` on PATH is used by name", async () => {
    const bin = join(root, "bin");
    await mkdir(bin);
    await writeFile(join(bin, "toolnexus-companion"), "#!/bin/sh\n");
    await chmod(join(bin, "toolnexus-companion"), 0o755);
    const saved = { ...env };
    env.PATH = `${bin}:${env.PATH}`;
    env.TOOLNEXUS_COMPANION_URL = "http://127.0.0.1:7400";
    try {
      const vscode = await cli("connect", "vscode", "--dry-run");
      expect(vscode.stdout).toContain('+\t\t\t"url": "http://127.0.0.1:7400/mcp",');
      expect(vscode.stdout).toContain('+\t\t\t\t"Authorization": "Bearer ${input:toolnexus-token}"');
      expect(vscode.stdout).toContain('+\t\t\t"password": true');
      const codex = await cli("connect", "codex", "--hooks", "--dry-run");
      expect(codex.stdout).toContain('+command = "toolnexus-companion"');
      expect(codex.stdout).toContain('+args = ["connect", "--agent", "codex"]');
      expect(codex.stdout).toContain('+env = { TOOLNEXUS_COMPANION_URL = "http://127.0.0.1:7400" }');
      expect(codex.stdout).toContain('+            "command": "toolnexus-companion hook codex",');
    } finally {
      env = saved;
      await rm(bin, { recursive: true });
    }
  });

  it("a file the agent could not read is never edited; a symlinked config is edited through the link", async () => {
    const broken = join(home, ".codeium/windsurf/mcp_config.json");
    const original = await readFile(broken, "utf8");
    await writeFile(broken, '{ "mcpServers": { "a": { "command": "x" } } // comments are not JSON\n}');
    const refused = await cli("connect", "windsurf");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/fix it first — nothing was changed/);
    expect(await readFile(broken, "utf8")).toBe('{ "mcpServers": { "a": { "command": "x" } } // comments are not JSON\n}');
    await writeFile(broken, original);

    const real = join(root, "dotfiles", "settings.json");
    await mkdir(dirname(real), { recursive: true });
    const gemini = join(home, ".gemini/settings.json");
    await cp(gemini, real);
    await rm(gemini);
    await symlink(real, gemini);
    expect((await cli("connect", "gemini")).code).toBe(0);
    expect((await stat(gemini)).isFile()).toBe(true);
    expect(JSON.parse(await readFile(real, "utf8")).mcpServers.toolnexus).toBeDefined();
    expect((await readdir(dirname(real))).some((n) => n.startsWith("settings.json.bak-"))).toBe(true);
    const { lstat } = await import("node:fs/promises");
    expect((await lstat(gemini)).isSymbolicLink()).toBe(true);
  });
});
