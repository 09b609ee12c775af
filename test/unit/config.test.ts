import { describe, expect, it } from "vitest";
import { expandHeaders, McpConfigError, parseConfig, sanitize } from "../../src/main/mcp/config";

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

  it("a server with neither command nor url is an error naming it; the others load", () => {
    const { servers, invalid } = parseConfig({ mcpServers: { broken: { args: ["x"] }, ok: { command: "x" } } });
    expect(servers.map((s) => s.name)).toEqual(["ok"]);
    expect(invalid).toEqual([{ name: "broken", error: 'server "broken": needs a `command` (local server) or a `url` (remote server)' }]);
  });

  it("reports bad field types per server", () => {
    const { invalid } = parseConfig({
      mcpServers: { t: { command: "x", timeout: -1 }, u: { url: "ftp://x" }, v: { command: 3 }, w: "nope", e: { command: "x", env: [] } },
    });
    expect(invalid.map((i) => i.name)).toEqual(["t", "u", "v", "w", "e"]);
    expect(invalid.every((i) => i.error.startsWith(`server "${i.name}": `))).toBe(true);
  });

  it("malformed JSON is a clear error with line and column", () => {
    expect(() => parseConfig('{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}')).toThrow(McpConfigError);
    expect(() => parseConfig('{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}')).toThrow(/not valid JSON \(line 3, column \d+\)/);
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
