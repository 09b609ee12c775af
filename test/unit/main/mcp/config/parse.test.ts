import { describe, expect, it } from "vitest";
import { sanitize } from "../../../../../src/main/mcp/config/config";
import { parseConfig } from "../../../../../src/main/mcp/config/parse";
import { expandHeaders } from "../../../../../src/main/mcp/config/references";
import { McpConfigError } from "../../../../../src/main/base/config-text";

describe("parseConfig", () => {
  it("reads mcpServers, servers, mcp and a bare map, ignoring reserved keys", () => {
    const server = { command: "node", args: ["x.js"] };
    for (const config of [{ mcpServers: { a: server } }, { servers: { a: server } }, { mcp: { a: server } }, { a: server, builtins: {}, agents: {}, a2a: {}, mcpServer: {} }]) {
      const { servers, invalid } = parseConfig(config);
      expect(invalid).toEqual([]);
      expect(servers.map((s) => s.name)).toEqual(["a"]);
    }
  });

  it("infers the type: url ⇒ remote, command ⇒ local", () => {
    const { servers } = parseConfig({ mcpServers: { r: { url: "http://127.0.0.1:9/mcp" }, l: { command: "srv" } } });
    expect(servers.map((s) => [s.name, s.type])).toEqual([["r", "remote"], ["l", "local"]]);
  });

  it("takes command as an array or as a string plus args (Claude Desktop / Cursor)", () => {
    const { servers } = parseConfig({ mcpServers: { a: { command: ["npx", "-y", "pkg"] }, b: { command: "npx", args: ["-y", "pkg"] } } });
    for (const s of servers) expect(s).toMatchObject({ type: "local", command: "npx", args: ["-y", "pkg"] });
  });

  it("treats env and environment as aliases, keeps cwd, and defaults timeout to 30000 ms", () => {
    const { servers } = parseConfig({ mcpServers: { a: { command: "x", env: { A: "1" }, cwd: "/tmp" }, b: { command: "x", environment: { B: 2 } } } });
    expect(servers[0]).toMatchObject({ env: { A: "1" }, cwd: "/tmp", timeout: 30_000 });
    expect(servers[1]).toMatchObject({ env: { B: "2" } });
  });

  it("disabled: true and enabled: false skip a server", () => {
    const { servers } = parseConfig({ mcpServers: { a: { command: "x", disabled: true }, b: { command: "x", enabled: false }, c: { command: "x" } } });
    expect(servers.map((s) => [s.name, s.enabled])).toEqual([["a", false], ["b", false], ["c", true]]);
  });

  it("probes the protocol era for remote servers only, unless told otherwise", () => {
    const { servers } = parseConfig({ mcpServers: { r: { url: "https://x.example/mcp" }, l: { command: "x" }, l2: { command: "x", protocol: "auto" } } });
    expect(servers.map((s) => s.protocol)).toEqual(["auto", "legacy", "auto"]);
  });

  // Changed with issue 8: an entry with neither command nor url is some other setting, skipped with
  // the reason instead of a failed server; one that says it is a server (a `type`) still fails.
  it("a settings entry with neither command nor url is skipped; one with server keys (args, env…) is that server's error", () => {
    const { servers, invalid, skipped } = parseConfig({
      mcpServers: { broken: { args: ["x"] }, typed: { type: "stdio", args: ["x"] }, ok: { command: "x" }, theme: { dark: true } },
    });
    expect(servers.map((s) => s.name)).toEqual(["ok"]);
    expect(skipped).toEqual([{ name: "theme", reason: "not a server: it has no `command` or `url`" }]);
    expect(invalid).toEqual([
      { name: "broken", error: 'server "broken": needs a `command` (local server) or a `url` (remote server)' },
      { name: "typed", error: 'server "typed": `command` must be a string or an array of strings' },
    ]);
  });

  it("reports bad field types per server", () => {
    const { invalid } = parseConfig({
      mcpServers: { t: { command: "x", timeout: -1 }, u: { url: "ftp://x" }, v: { command: 3 }, w: "nope", e: { command: "x", env: [] } },
    });
    // `w: "nope"` is not a server at all (changed with issue 8): skipped, not failed.
    expect(invalid.map((i) => i.name)).toEqual(["t", "u", "v", "e"]);
    expect(invalid.every((i) => i.error.startsWith(`server "${i.name}": `))).toBe(true);
  });

  // Changed with issue 8: a trailing comma is accepted now (JSONC); a missing comma is still an error.
  it("malformed JSON is a clear error with line and column", () => {
    const broken = '{\n  "mcpServers": {\n    "a": { "command": "x" "args": [] }\n  }\n}';
    expect(() => parseConfig(broken)).toThrow(McpConfigError);
    expect(() => parseConfig(broken)).toThrow(/not valid JSON \(line 3, column 27\): expected a comma/);
  });

  it("an unknown top-level shape is a clear error", () => {
    expect(() => parseConfig([1, 2])).toThrow(/must be an object of servers.*not an array/);
    expect(() => parseConfig({ name: "x", version: 2 })).toThrow(/no recognisable servers.*"name", "version"/);
    expect(() => parseConfig({ mcpServers: [] })).toThrow(/"mcpServers" must be an object/);
    expect(() => parseConfig(null)).toThrow(/not null/);
  });
});

describe("sanitize", () => {
  it("replaces every character outside [a-zA-Z0-9_-] with _", () => {
    expect(sanitize("my server.v2/β")).toBe("my_server_v2__");
    expect(sanitize("ok-name_1")).toBe("ok-name_1");
  });
});

describe("expandHeaders", () => {
  it("expands ${ENV} and ${secret:NAME}", async () => {
    const headers = await expandHeaders({ Authorization: "Bearer ${TOKEN}", "X-Key": "${secret:api}" }, { TOKEN: "t1" }, async (n) => (n === "api" ? "s3" : undefined));
    expect(headers).toEqual({ Authorization: "Bearer t1", "X-Key": "s3" });
  });

  it("a missing variable or secret is an error naming it, never a value", async () => {
    await expect(expandHeaders({ A: "${NOPE}" }, {})).rejects.toThrow(/environment variable NOPE/);
    await expect(expandHeaders({ A: "Bearer ${secret:gh}" }, {}, async () => undefined)).rejects.toThrow(/secret "gh"/);
  });
});

describe("parseConfig: the shapes other clients write (issue 8)", () => {
  it("accepts comments and trailing commas (VS Code, Zed, opencode files)", () => {
    const text = '{\n  // my servers\n  "servers": {\n    /* one */ "a": { "command": "x", "args": ["1",], },\n  },\n}\n';
    expect(parseConfig(text).servers).toMatchObject([{ name: "a", command: "x", args: ["1"] }]);
  });

  it("reads serverUrl (Windsurf) and httpUrl (Gemini CLI) as remote; httpUrl means streamable HTTP", () => {
    const { servers, invalid } = parseConfig({ mcpServers: { w: { serverUrl: "https://w.example/mcp" }, g: { httpUrl: "https://g.example/mcp" }, s: { url: "https://s.example/sse", type: "sse" } } });
    expect(invalid).toEqual([]);
    expect(servers.map((s) => [s.name, s.type, s.type === "remote" && s.url, s.type === "remote" && s.transport])).toEqual([
      ["w", "remote", "https://w.example/mcp", "auto"],
      ["g", "remote", "https://g.example/mcp", "streamable-http"],
      ["s", "remote", "https://s.example/sse", "sse"],
    ]);
  });

  it("takes every type spelling: http, streamable-http, sse, remote, local, stdio", () => {
    const url = "https://x.example/mcp";
    const { servers, invalid } = parseConfig({
      servers: { a: { type: "http", url }, b: { type: "streamable-http", url }, c: { type: "sse", url }, d: { type: "remote", url }, e: { type: "local", command: ["x"] }, f: { type: "stdio", command: "x" } },
    });
    expect(invalid).toEqual([]);
    expect(servers.map((s) => s.type)).toEqual(["remote", "remote", "remote", "remote", "local", "local"]);
  });

  it("reads opencode's mcp.servers layout as a map of servers, not one server named servers", () => {
    const { servers, invalid, skipped } = parseConfig({ mcp: { servers: { everything: { type: "local", command: ["npx", "-y", "srv"], disabled: true }, ctx: { type: "remote", url: "https://c.example/mcp" } } } });
    expect([invalid, skipped]).toEqual([[], []]);
    expect(servers.map((s) => [s.name, s.type, s.enabled])).toEqual([["everything", "local", false], ["ctx", "remote", true]]);
    // A V1 server that happens to be named "servers" is still that server.
    expect(parseConfig({ mcp: { servers: { type: "local", command: ["x"] } } }).servers.map((s) => s.name)).toEqual(["servers"]);
  });

  it("a settings file whose keys are not servers gives skipped entries, not failed servers", () => {
    const { servers, invalid, skipped } = parseConfig({ theme: "dark", editor: { fontSize: 12 }, tools: ["a"], srv: { command: "x" } });
    expect(servers.map((s) => s.name)).toEqual(["srv"]);
    expect(invalid).toEqual([]);
    expect(skipped.map((s) => s.name)).toEqual(["theme", "editor", "tools"]);
    expect(skipped.every((s) => s.reason.startsWith("not a server"))).toBe(true);
    // Zed: servers an extension provides have only settings.
    const zed = parseConfig({ context_servers: { ext: { source: "extension", settings: {} }, mine: { source: "custom", command: "node", args: ["s.js"] }, old: { command: { path: "p", args: ["a"], env: { K: "v" } } } } });
    expect(zed.skipped.map((s) => s.name)).toEqual(["ext"]);
    expect(zed.servers).toMatchObject([{ name: "mine", command: "node", args: ["s.js"] }, { name: "old", command: "p", args: ["a"], env: { K: "v" } }]);
  });
});

describe("parseConfig: variables", () => {
  const env = { HOME_DIR: "/home/p", TOKEN: "t0k" };

  it("expands ${VAR}, ${VAR:-default}, ${env:VAR} and {env:VAR} in command, args, env, cwd and url", () => {
    const { servers, invalid } = parseConfig(
      {
        mcpServers: {
          l: { command: "${HOME_DIR}/bin/srv", args: ["--mode=${MODE:-fast}", "{env:TOKEN}"], env: { T: "${env:TOKEN}" }, cwd: "${HOME_DIR}" },
          r: { url: "https://x.example/${TOKEN}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        },
      },
      { env },
    );
    expect(invalid).toEqual([]);
    expect(servers[0]).toMatchObject({ command: "/home/p/bin/srv", args: ["--mode=fast", "t0k"], env: { T: "t0k" }, cwd: "/home/p" });
    // Headers keep their references until connect time, where secrets are at hand.
    expect(servers[1]).toMatchObject({ url: "https://x.example/t0k/mcp", headers: { Authorization: "Bearer ${TOKEN}" } });
  });

  it("an unset variable fails that server with the variable's name, never its literal text", () => {
    const { servers, invalid } = parseConfig({ mcpServers: { a: { command: "x", env: { K: "${NOPE_NOT_SET}" } }, b: { command: "y" } } }, { env });
    expect(servers.map((s) => s.name)).toEqual(["b"]);
    expect(invalid).toEqual([{ name: "a", error: 'server "a": env.K needs the environment variable NOPE_NOT_SET, which is not set' }]);
  });

  it("a VS Code ${input:id} in env, args and headers is kept for connect time, with the recorded inputs; elsewhere it fails by name", () => {
    const { servers, invalid } = parseConfig(
      {
        servers: {
          gh: { command: "x", args: ["--t=${input:gh-token}"], env: { GH: "${input:gh-token}", HOME2: "${TOKEN}" }, inputs: [{ id: "gh-token", description: "GitHub token", password: true }] },
          api: { url: "https://a.example/mcp", headers: { "X-Key": "${input:api-key}" } },
          bad: { command: "${input:cmd}", inputs: [{ id: "cmd", description: "Which command" }] },
        },
      },
      { env },
    );
    expect(servers[0]).toMatchObject({ args: ["--t=${input:gh-token}"], env: { GH: "${input:gh-token}", HOME2: "t0k" }, inputs: [{ id: "gh-token", description: "GitHub token", password: true }] });
    expect(servers[1]).toMatchObject({ headers: { "X-Key": "${input:api-key}" } });
    expect(invalid).toEqual([{ name: "bad", error: 'server "bad": command uses the input "cmd" (Which command); inputs are asked for only in env, args and headers' }]);
  });

  it("${secret:NAME} is kept in env for connect time and refused elsewhere by name", async () => {
    const { servers, invalid } = parseConfig({ mcpServers: { a: { command: "x", env: { K: "${secret:gh}" } }, b: { command: "x", args: ["${secret:gh}"] } } }, { env });
    expect(servers[0]).toMatchObject({ env: { K: "${secret:gh}" } });
    expect(invalid[0].error).toBe('server "b": args[0] uses ${secret:gh}, which is read in env and headers only');
    const { expandEnvSecrets } = await import("../../../../../src/main/mcp/config/references");
    expect(await expandEnvSecrets({ K: "${secret:gh}", L: "plain" }, async (n) => (n === "gh" ? "ghp_x" : undefined))).toEqual({ K: "ghp_x", L: "plain" });
    await expect(expandEnvSecrets({ K: "${secret:nope}" }, async () => undefined)).rejects.toThrow('env K needs the secret "nope", which is not set in the keychain');
  });

  it("reads an envFile under env, env winning; a missing envFile names the file", async () => {
    const { mkdtemp, writeFile } = await import("node:fs/promises");
    const { join } = await import("node:path");
    const dir = await mkdtemp(join((await import("node:os")).tmpdir(), "envfile-"));
    const file = join(dir, ".env");
    await writeFile(file, '# comment\nexport A=1\nB="two words"\nC=3 # trailing\nD=\'lit $X\'\n');
    const { servers, invalid } = parseConfig({ servers: { a: { command: "x", envFile: file, env: { C: "env" } }, b: { command: "x", envFile: join(dir, "missing") } } }, { env });
    expect(servers[0]).toMatchObject({ env: { A: "1", B: "two words", C: "env", D: "lit $X" } });
    expect(invalid[0].error).toMatch(/^server "b": envFile ".*missing" cannot be read: ENOENT/);
  });

  it("expand: false keeps every reference as written (for listing)", () => {
    const { servers, invalid } = parseConfig({ mcpServers: { a: { command: "${NOPE}", env: { K: "${input:x}" } } } }, { env: {}, expand: false });
    expect(invalid).toEqual([]);
    expect(servers[0]).toMatchObject({ command: "${NOPE}", env: { K: "${input:x}" } });
  });
});

describe("expandHeaders: the other spellings", () => {
  it("takes ${VAR:-default}, ${env:VAR} and {env:VAR}", async () => {
    const out = await expandHeaders({ A: "${NOPE:-fallback}", B: "${env:T}", C: "x {env:T} y" }, { T: "v" });
    expect(out).toEqual({ A: "fallback", B: "v", C: "x v y" });
  });
});
