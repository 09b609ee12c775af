// `toolnexus-companion servers import|list` end to end: the real launcher in a child process, with
// HOME, XDG_CONFIG_HOME and APPDATA pointing at a temporary copy of the fixture HOME.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/main/mcp/config/parse";
import { parseConfigText } from "../../src/main/base/config-text";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "bin/toolnexus-companion");
const FIXTURE = join(ROOT, "test/fixtures/clients/home");

let home: string;
let env: NodeJS.ProcessEnv;
const configPath = () => join(home, ".config", "toolnexus-companion", "mcp.json");

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, "servers", ...args], { env, cwd: join(home, "project"), timeout: 30_000 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "import-home-"));
  await cp(FIXTURE, home, { recursive: true });
  const { TOOLNEXUS_CONFIG: _ignored, ...rest } = process.env;
  env = { ...rest, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, ".config"), APPDATA: join(home, "AppData", "Roaming") };
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("servers import in a temporary HOME", { timeout: 60_000 }, () => {
  it("--dry-run --json lists every server found, with name, type, command/args or url and from, and writes nothing", async () => {
    const { stdout, code } = await cli("import", "--dry-run", "--json");
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<Record<string, unknown>>;
    await expect(stat(configPath())).rejects.toMatchObject({ code: "ENOENT" });
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName.github).toMatchObject({ type: "local", command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], action: "add" });
    // Same command line in Claude Desktop and Windsurf: one server, both sources.
    expect((byName.github.from as Array<{ client: string }>).map((f) => f.client)).toEqual(["claude-desktop", "windsurf"]);
    // A different server named github in Cursor is kept apart, visibly.
    expect(byName["github@cursor"]).toMatchObject({ type: "local", command: "docker", clientName: "github", from: [{ client: "cursor", file: join(home, ".cursor/mcp.json"), scope: "user" }] });
    expect(byName.sentry).toMatchObject({ type: "remote", url: "https://mcp.sentry.dev/mcp", from: [{ client: "claude-code" }] });
    expect(byName.perplexity).toMatchObject({ inputs: [{ id: "perplexity-key", description: "Perplexity API Key", password: true }] });
    expect(byName.picker).toMatchObject({ action: "skipped", reason: "uses ${command:pickServer}, which only the editor can resolve" });
    for (const r of rows) {
      expect(r).toHaveProperty("name");
      expect(r).toHaveProperty("type");
      expect(Array.isArray(r.from)).toBe(true);
    }
    const clients = new Set(rows.flatMap((r) => (r.from as Array<{ client: string }>).map((f) => f.client)));
    expect([...clients].sort()).toEqual(["claude-code", "claude-desktop", "codex", "cursor", "gemini", "opencode", "vscode", "windsurf", "zed"]);
  });

  it("the human dry run says what would change and writes nothing", async () => {
    const { stdout, code } = await cli("import", "--dry-run");
    expect(code).toBe(0);
    expect(stdout).toMatch(/\+ github@cursor {2}local {2}docker run/);
    expect(stdout).toMatch(/Dry run: would add \d+ servers to ~\/\.config\/toolnexus-companion\/mcp\.json; nothing was written\./);
    await expect(stat(configPath())).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("import writes the companion's config (private, loadable, references not values); a second import changes nothing", async () => {
    const clientFilesBefore = await readFile(join(home, ".cursor/mcp.json"), "utf8");
    const first = await cli("import");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Added \d+ servers/);
    const text = await readFile(configPath(), "utf8");
    expect((await stat(configPath())).mode & 0o777).toBe(0o600);
    const value = parseConfigText(text) as { mcpServers: Record<string, Record<string, unknown>> };
    expect(value.mcpServers["github@cursor"]).toMatchObject({ command: "docker", env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_TOKEN}" }, importedFrom: [{ client: "cursor" }] });
    expect(text).not.toContain("${env:");
    // The companion's own reader runs what was written: env references resolve from its environment.
    const parsed = parseConfig(text, { env: { GITHUB_TOKEN: "t", SENTRY_TOKEN: "s" } });
    expect(parsed.servers.find((s) => s.name === "github@cursor")).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: "t" } });
    // A VS Code input stays a reference with its description; the connection asks for it (mcp/inputs.ts).
    expect(parsed.servers.find((s) => s.name === "perplexity")).toMatchObject({
      env: { PERPLEXITY_API_KEY: "${input:perplexity-key}" },
      inputs: [{ id: "perplexity-key", description: "Perplexity API Key", password: true }],
    });
    expect(await readFile(join(home, ".cursor/mcp.json"), "utf8")).toBe(clientFilesBefore);

    const second = await cli("import");
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/Nothing to change in/);
    expect(await readFile(configPath(), "utf8")).toBe(text);
  });

  it("keeps the companion file's comments, unknown keys and servers; --from and --config pick the source and target", async () => {
    const target = join(home, "custom.json");
    await writeFile(target, '{\n  // mine\n  "ui": { "x": 1 },\n  "servers": { "keep": { "command": "k" } },\n}\n');
    const { code } = await cli("import", "--from", "codex", "--config", target);
    expect(code).toBe(0);
    const text = await readFile(target, "utf8");
    expect(text).toContain("// mine");
    const value = parseConfigText(text) as { ui: unknown; servers: Record<string, unknown> };
    expect(value.ui).toEqual({ x: 1 });
    expect(Object.keys(value.servers)).toEqual(["keep", "context7", "figma", "old"]);

    const list = await cli("list", "--json", "--config", target);
    const rows = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.name, r.type])).toEqual([["keep", "local"], ["context7", "local"], ["figma", "remote"], ["old", "local"]]);
    expect(rows[2]).toMatchObject({ url: "https://mcp.figma.com/mcp", from: [{ client: "codex", file: join(home, ".codex/config.toml") }] });
  });

  it("TOOLNEXUS_CONFIG names the config when --config is absent; a broken config is not overwritten", async () => {
    const broken = join(home, "broken.json");
    await writeFile(broken, '{ "mcpServers": { "a": { "command": "x" "args": [] } } }');
    env.TOOLNEXUS_CONFIG = broken;
    const { code, stderr } = await cli("import", "--from", "zed");
    delete env.TOOLNEXUS_CONFIG;
    expect(code).toBe(1);
    expect(stderr).toMatch(/not valid JSON \(line 1, column 41\)/);
    expect(await readFile(broken, "utf8")).toBe('{ "mcpServers": { "a": { "command": "x" "args": [] } } }');
  });
});
