// Every client's file format, read through the real readers from fixtures written after each
// client's documentation (test/fixtures/clients/home is a HOME with one of each, and a project).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLIENTS, discover, readFrom, type FileReport } from "../../../../src/main/client-configs";
import type { Machine } from "../../../../src/main/client-configs/types";

const HOME = fileURLToPath(new URL("../../../fixtures/clients/home", import.meta.url));
const PROJECT = `${HOME}/project`;
const machine: Machine = { platform: "linux", home: HOME, env: {}, project: PROJECT };

let reports: FileReport[];
const file = (client: string, path: string) => {
  const found = reports.find((r) => r.client === client && r.file === path);
  if (!found) throw new Error(`no report for ${client} ${path}`);
  return found;
};
const entries = (r: FileReport) => Object.fromEntries(r.servers.map((s) => [s.name, s.entry]));
const skipped = (r: FileReport) => Object.fromEntries(r.skipped.map((s) => [s.name, s.reason]));

describe("client readers on the fixture HOME", async () => {
  reports = await discover(machine);

  it("finds every client's user and project files, and nothing fails to parse", () => {
    expect(reports.map((r) => [r.client, r.file.replace(HOME, "~"), r.scope.replace(HOME, "~")])).toEqual([
      ["claude-desktop", "~/.config/Claude/claude_desktop_config.json", "user"],
      ["claude-code", "~/.claude.json", "user"],
      ["claude-code", "~/project/.mcp.json", "project:~/project"],
      ["cursor", "~/.cursor/mcp.json", "user"],
      ["cursor", "~/project/.cursor/mcp.json", "project:~/project"],
      ["vscode", "~/.config/Code/User/mcp.json", "user"],
      ["vscode", "~/project/.vscode/mcp.json", "project:~/project"],
      ["windsurf", "~/.codeium/windsurf/mcp_config.json", "user"],
      ["zed", "~/.config/zed/settings.json", "user"],
      ["zed", "~/project/.zed/settings.json", "project:~/project"],
      ["opencode", "~/.config/opencode/opencode.jsonc", "user"],
      ["opencode", "~/project/opencode.json", "project:~/project"],
      ["codex", "~/.codex/config.toml", "user"],
      ["gemini", "~/.gemini/settings.json", "user"],
      ["gemini", "~/project/.gemini/settings.json", "project:~/project"],
    ]);
    expect(reports.filter((r) => r.error)).toEqual([]);
  });

  it("Claude Desktop: mcpServers only, literal values, a stray key skipped", () => {
    const r = file("claude-desktop", `${HOME}/.config/Claude/claude_desktop_config.json`);
    expect(entries(r).github).toEqual({ command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_TOKEN}" } });
    expect(Object.keys(entries(r))).toEqual(["filesystem", "github"]);
    expect(skipped(r)).toEqual({ "not-a-server": "not a server (not an object)" });
  });

  it("Claude Code: user servers, per-project (local) servers with their folder, and the project's .mcp.json", () => {
    const user = file("claude-code", `${HOME}/.claude.json`);
    expect(entries(user)).toEqual({
      sentry: { type: "http", url: "https://mcp.sentry.dev/mcp", headers: { Authorization: "Bearer ${SENTRY_TOKEN}" } },
      memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] },
      events: { type: "sse", url: "${EVENTS_URL:-https://events.example.com}/sse" },
      db: { command: "node", args: ["scripts/db-mcp.js"], env: { DATABASE_URL: "${DATABASE_URL}" }, cwd: "/work/example-project" },
    });
    expect(user.servers.find((s) => s.name === "db")!.from.scope).toBe("local:/work/example-project");
    const project = file("claude-code", `${PROJECT}/.mcp.json`);
    expect(entries(project)["local-tool"]).toEqual({ command: "node", args: ["./tools/mcp.js"], cwd: PROJECT });
  });

  it("Cursor: JSONC, ${env:X} becomes ${X}, ${userHome} and envFile resolved, ${workspaceFolder} outside a workspace skipped by name", () => {
    const r = file("cursor", `${HOME}/.cursor/mcp.json`);
    expect(entries(r).github.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_TOKEN}" });
    expect(entries(r).linear).toEqual({ type: "http", url: "https://mcp.linear.app/sse", headers: { Authorization: "Bearer ${LINEAR_KEY}" } });
    expect(entries(r).notes).toEqual({ command: `${HOME}/bin/notes-mcp`, args: [], envFile: `${HOME}/.notes.env` });
    expect(skipped(r)["ws-only"]).toMatch(/^uses \$\{workspaceFolder\}, /);
    expect(entries(file("cursor", `${PROJECT}/.cursor/mcp.json`))["project-docs"].args).toEqual(["-y", "docs-mcp", `${PROJECT}/docs`]);
  });

  it("VS Code: servers with inputs kept as references plus their description and password flag; workspace variables resolved", () => {
    const r = file("vscode", `${HOME}/.config/Code/User/mcp.json`);
    expect(entries(r).perplexity).toEqual({
      command: "npx",
      args: ["-y", "server-perplexity-ask"],
      env: { PERPLEXITY_API_KEY: "${input:perplexity-key}" },
      inputs: [{ id: "perplexity-key", description: "Perplexity API Key", password: true }],
    });
    expect(entries(r)["gh-remote"]).toEqual({ type: "http", url: "https://api.githubcopilot.com/mcp/" });
    expect(skipped(r).picker).toBe("uses ${command:pickServer}, which only the editor can resolve");
    expect(entries(file("vscode", `${PROJECT}/.vscode/mcp.json`))["workspace-tool"]).toEqual({
      command: "node",
      args: [`${PROJECT}/tools/server.js`, "--name", "project"],
      envFile: `${PROJECT}/.env`,
      cwd: PROJECT,
    });
  });

  it("Windsurf: serverUrl, ${env:X}, disabled kept; ${file:…} skipped by name", () => {
    const r = file("windsurf", `${HOME}/.codeium/windsurf/mcp_config.json`);
    expect(entries(r).figma).toEqual({ type: "http", url: "https://figma.example.com/mcp", headers: { Authorization: "Bearer ${AUTH_TOKEN}" } });
    expect(entries(r).off).toEqual({ command: "old-server", args: [], disabled: true });
    expect(skipped(r)["secret-file"]).toMatch(/^uses \$\{file:\/home\/person\/\.key\}, which reads a file's contents/);
  });

  it("Zed: JSONC context_servers, the older command object, remote url; an extension's server skipped; editor settings ignored", () => {
    const r = file("zed", `${HOME}/.config/zed/settings.json`);
    expect(Object.keys(entries(r))).toEqual(["postgres", "legacy", "remote-docs"]);
    expect(entries(r).legacy).toEqual({ command: "/usr/local/bin/legacy-mcp", args: ["--stdio"], env: { LOG: "1" } });
    expect(skipped(r)["mcp-server-github"]).toMatch(/Zed extension/);
  });

  it("opencode: V2 mcp.servers and V1 mcp (where a server may be named servers), {env:X}, enabled/disabled; {file:…} skipped", () => {
    const v2 = file("opencode", `${HOME}/.config/opencode/opencode.jsonc`);
    expect(entries(v2).everything).toEqual({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"], env: { API_KEY: "${EVERYTHING_KEY}" } });
    expect(entries(v2).context7).toEqual({ type: "http", url: "https://mcp.context7.com/mcp", headers: { CONTEXT7_API_KEY: "${CONTEXT7_KEY}" } });
    expect(entries(v2).paused.disabled).toBe(true);
    expect(skipped(v2)["from-file"]).toMatch(/^uses \{file:~\/\.secrets\/x\}/);
    const v1 = file("opencode", `${PROJECT}/opencode.json`);
    expect(entries(v1)).toEqual({
      servers: { command: "servers-named-mcp", args: [], cwd: PROJECT },
      jira: { type: "http", url: "https://jira.example.com/mcp", disabled: true },
    });
  });

  it("Codex: TOML tables, env_vars and the header variables become references, timeouts in ms, enabled = false", () => {
    const r = file("codex", `${HOME}/.codex/config.toml`);
    expect(entries(r)).toEqual({
      context7: { command: "npx", args: ["-y", "@upstash/context7-mcp"], env: { LOG_LEVEL: "info", CONTEXT7_KEY: "${CONTEXT7_KEY}" }, timeout: 20_000, callTimeout: 120_000 },
      figma: {
        type: "streamable-http",
        url: "https://mcp.figma.com/mcp",
        headers: { "X-Figma-Region": "us-east-1", "X-Team": "${FIGMA_TEAM}", Authorization: "Bearer ${FIGMA_OAUTH_TOKEN}" },
      },
      old: { command: "old-mcp", args: [], disabled: true },
    });
  });

  it("Gemini CLI: $VAR and ${VAR}, httpUrl is streamable HTTP and url is SSE, settings keys ignored, a relative user cwd skipped", () => {
    const r = file("gemini", `${HOME}/.gemini/settings.json`);
    expect(entries(r).pythonTools.env).toEqual({ DATABASE_URL: "${DB_CONNECTION_STRING}", API_KEY: "${EXTERNAL_API_KEY}" });
    expect(entries(r).httpServer).toEqual({ type: "streamable-http", url: "http://localhost:3000/mcp", headers: { Authorization: "Bearer ${HTTP_TOKEN}" }, callTimeout: 5000 });
    expect(entries(r).sseServer).toEqual({ type: "sse", url: "http://localhost:8080/sse" });
    expect(skipped(r).relative).toMatch(/cwd "\.\/mcp-servers\/node" is relative/);
    expect(entries(file("gemini", `${PROJECT}/.gemini/settings.json`)).proj.cwd).toBe(`${PROJECT}/mcp`);
  });

  it("no imported entry carries a resolved value: every variable stays a reference", () => {
    const text = JSON.stringify(reports.flatMap((r) => r.servers.map((s) => s.entry)));
    expect(text).not.toMatch(/\$\{env:|\{env:|"\$[A-Z]/);
  });
});

describe("client paths per platform", () => {
  const files = (m: Machine, id: string) => CLIENTS.find((c) => c.id === id)!.locations(m).map((l) => l.file);

  it("Linux honours $XDG_CONFIG_HOME and keeps ~/.config/Claude for Claude Desktop's community builds", () => {
    const m: Machine = { platform: "linux", home: "/home/p", env: { XDG_CONFIG_HOME: "/xdg" } };
    expect(files(m, "claude-desktop")).toEqual(["/xdg/Claude/claude_desktop_config.json", "/home/p/.config/Claude/claude_desktop_config.json"]);
    expect(files(m, "vscode")[0]).toBe("/xdg/Code/User/mcp.json");
    expect(files(m, "zed")).toEqual(["/xdg/zed/settings.json"]);
    expect(files(m, "opencode")).toEqual(["/xdg/opencode/opencode.json", "/xdg/opencode/opencode.jsonc"]);
    expect(files({ ...m, env: { CODEX_HOME: "/c" } }, "codex")).toEqual(["/c/config.toml"]);
  });

  it("macOS uses ~/Library/Application Support for the Electron apps, ~/.config for Zed and opencode", () => {
    const m: Machine = { platform: "darwin", home: "/Users/p", env: {} };
    expect(files(m, "claude-desktop")).toEqual(["/Users/p/Library/Application Support/Claude/claude_desktop_config.json"]);
    expect(files(m, "vscode")[0]).toBe("/Users/p/Library/Application Support/Code/User/mcp.json");
    expect(files(m, "zed")).toEqual(["/Users/p/.config/zed/settings.json"]);
    expect(files(m, "windsurf")).toEqual(["/Users/p/.codeium/windsurf/mcp_config.json"]);
  });

  it("Windows uses %APPDATA% and %USERPROFILE%", () => {
    const m: Machine = { platform: "win32", home: "C:\\Users\\p", env: { APPDATA: "C:\\Users\\p\\AppData\\Roaming" } };
    expect(files(m, "claude-desktop")).toEqual(["C:\\Users\\p\\AppData\\Roaming\\Claude\\claude_desktop_config.json"]);
    expect(files(m, "vscode")[0]).toBe("C:\\Users\\p\\AppData\\Roaming\\Code\\User\\mcp.json");
    expect(files(m, "zed")).toEqual(["C:\\Users\\p\\AppData\\Roaming\\Zed\\settings.json"]);
    expect(files(m, "cursor")).toEqual(["C:\\Users\\p\\.cursor\\mcp.json"]);
    expect(files(m, "gemini")).toEqual(["C:\\Users\\p\\.gemini\\settings.json"]);
    expect(files(m, "claude-code")).toEqual(["C:\\Users\\p\\.claude.json"]);
  });
});

describe("broken files and --from", () => {
  it("a comment in a strict-JSON client's file is refused with line and column; a TOML error names its line", async () => {
    const { mkdtemp, mkdir, writeFile } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const home = await mkdtemp(`${tmpdir()}/clients-`);
    await mkdir(`${home}/.codeium/windsurf`, { recursive: true });
    await writeFile(`${home}/.codeium/windsurf/mcp_config.json`, '{\n  // no\n  "mcpServers": {}\n}\n');
    await mkdir(`${home}/.codex`);
    await writeFile(`${home}/.codex/config.toml`, "[mcp_servers.a]\ncommand = \n");
    const found = await discover({ platform: "linux", home, env: {} });
    expect(found.find((r) => r.client === "windsurf")!.error).toMatch(/not valid JSON \(this file takes no comments or trailing commas\) \(line 2, column 3\): a comment/);
    expect(found.find((r) => r.client === "codex")!.error).toMatch(/not valid TOML \(line 2, column 11\): invalid value/);
  });

  it("--from a client reads only that client; --from a file guesses its client by path", async () => {
    const only = await readFrom("gemini", machine);
    expect(Array.isArray(only) && only.map((r) => r.client)).toEqual(["gemini", "gemini"]);
    const one = await readFrom(`${HOME}/.codex/config.toml`, machine);
    expect(Array.isArray(one) && one.map((r) => [r.client, r.servers.length])).toEqual([["codex", 3]]);
    expect(await readFrom("nonsense-client", machine)).toEqual({ error: expect.stringMatching(/neither a file nor a client/) });
  });
});
