// The import plan as the app shows it, read through the real readers from a temporary copy of the
// fixture HOME (test/fixtures/clients/home), and the picked write.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildImport, fingerprintOf, importView, writeImport, type BuiltImport } from "../../../../src/main/client-configs/import-plan";
import type { Machine } from "../../../../src/main/client-configs/types";
import { parseConfigText } from "../../../../src/main/base/config-text";

const FIXTURE = fileURLToPath(new URL("../../../fixtures/clients/home", import.meta.url));
let home: string;
let machine: Machine;
let configPath: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "import-plan-"));
  await cp(FIXTURE, home, { recursive: true });
  machine = { platform: "linux", home, env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config") }, project: join(home, "project") };
  configPath = join(home, ".config", "toolnexus-companion", "mcp.json");
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function built(): Promise<BuiltImport> {
  const b = await buildImport(configPath, machine);
  if ("error" in b) throw new Error(b.error);
  return b;
}

describe("import plan per client and file", () => {
  it("lists each file with its servers: new, clash kept apart, duplicate of an earlier one, skipped with the reason", async () => {
    const view = importView(await built());
    const group = (client: string, file: string) => view.groups.find((g) => g.client === client && g.file === join(home, file))!;
    expect(group("claude-desktop", ".config/Claude/claude_desktop_config.json").servers.find((s) => s.clientName === "github")).toMatchObject({
      name: "github",
      action: "new",
      type: "local",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-github"],
    });
    const cursorGithub = group("cursor", ".cursor/mcp.json").servers.find((s) => s.clientName === "github")!;
    expect(cursorGithub).toMatchObject({ name: "github@cursor", action: "new", clash: true, command: "docker" });
    expect(cursorGithub.reason).toContain('already called "github"');
    expect(group("windsurf", ".codeium/windsurf/mcp_config.json").servers.find((s) => s.clientName === "github")).toMatchObject({ name: "github", action: "duplicate" });
    const vscodeServers = view.groups.filter((g) => g.client === "vscode").flatMap((g) => g.servers);
    expect(vscodeServers.find((s) => s.name === "picker")).toMatchObject({ action: "skipped", type: null, reason: "uses ${command:pickServer}, which only the editor can resolve" });
    expect(vscodeServers.find((s) => s.clientName === "perplexity")).toMatchObject({ inputs: ["perplexity-key"] });
    expect(view.groups.flatMap((g) => g.servers).find((s) => s.clientName === "sentry")).toMatchObject({ type: "remote", url: "https://mcp.sentry.dev/mcp" });
    expect(view.configPath).toBe(configPath);
    expect(view.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it("writes only the picked servers, keeps the file's comments and unknown keys, and then shows them as existing", async () => {
    const text = '{\n  // mine\n  "theme": "dark",\n  "mcpServers": { "own": { "command": "own-server" } }\n}\n';
    await mkdir(join(home, ".config", "toolnexus-companion"), { recursive: true });
    await writeFile(configPath, text);
    const before = await built();
    const { added } = await writeImport(before, new Set(["github@cursor", "sentry"]));
    expect(added).toEqual(["sentry", "github@cursor"]);
    const written = await readFile(configPath, "utf8");
    expect(written).toContain("// mine");
    const value = parseConfigText(written) as { theme: string; mcpServers: Record<string, { command?: string; url?: string }> };
    expect(value.theme).toBe("dark");
    expect(Object.keys(value.mcpServers)).toEqual(["own", "sentry", "github@cursor"]);
    expect(value.mcpServers["github@cursor"].command).toBe("docker");

    const after = await built();
    expect(fingerprintOf(after)).not.toBe(fingerprintOf(before));
    const servers = importView(after).groups.flatMap((g) => g.servers);
    expect(servers.find((s) => s.clientName === "sentry")).toMatchObject({ action: "existing", name: "sentry" });
    // github itself (Claude Desktop's) was not picked: still offered, under its own name now that it is free.
    expect(servers.find((s) => s.clientName === "github" && s.command === "npx")).toMatchObject({ action: "new", name: "github" });
  });

  it("a token written inline in another client's args or URL is masked in the view, and written as it was", async () => {
    await writeFile(
      join(home, ".cursor", "mcp.json"),
      JSON.stringify({ mcpServers: { keyed: { command: "keyed-server", args: ["--api-key=sk-live-0123456789abcdef"], env: { SECRET: "env-value-never-shown" } }, hosted: { url: "https://h.example/mcp?token=tok-9876" } } }),
    );
    const b = await built();
    const view = importView(b);
    const shown = JSON.stringify(view);
    expect(shown).not.toContain("sk-live-0123456789abcdef");
    expect(shown).not.toContain("tok-9876");
    expect(shown).not.toContain("env-value-never-shown");
    const cursor = view.groups.find((g) => g.client === "cursor" && g.scope === "user")!;
    expect(cursor.servers.find((s) => s.clientName === "keyed")).toMatchObject({ args: ["--api-key=•••"] });
    expect(cursor.servers.find((s) => s.clientName === "hosted")).toMatchObject({ url: "https://h.example/mcp?token=•••" });
    // SECRET is a literal secret: without a keychain to move it into, only keeping it literal imports.
    await expect(writeImport(b, new Set(["keyed", "hosted"]))).rejects.toThrow(/SECRET is a secret written inline/);
    await writeImport(b, new Set(["keyed", "hosted"]), { keepLiteral: "all" });
    const written = await readFile(configPath, "utf8");
    expect(written).toContain("--api-key=sk-live-0123456789abcdef");
    expect(written).toContain("https://h.example/mcp?token=tok-9876");
  });

  it("an unreadable companion config is an error, never overwritten", async () => {
    await mkdir(join(home, ".config", "toolnexus-companion"), { recursive: true });
    await writeFile(configPath, "{ not json");
    const b = await buildImport(configPath, machine);
    expect(b).toMatchObject({ error: expect.stringContaining("import changes nothing") });
    expect(await readFile(configPath, "utf8")).toBe("{ not json");
  });
});
