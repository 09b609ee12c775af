// Editing one server in the companion's config: comments, unknown keys and other servers survive;
// an edit that would not load is refused and nothing is written.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../../../../src/main/mcp/config/parse";
import { parseConfigText } from "../../../../../src/main/base/config-text";
import { addServer, ConfigEditError, editConfigFile, editServer, removeServer, setServerEnabled } from "../../../../../src/main/mcp/config/edit";

const BASE = `// my servers
{
  "theme": "dark", // not ours: kept
  "mcpServers": {
    /* the one I use most */
    "files": { "command": "npx", "args": ["-y", "files"], "timeout": 5000, "note": "keep me" },
    "web": { "url": "https://example.com/mcp", "enabled": true }
  }
}
`;

const servers = (text: string) => parseConfig(parseConfigText(text), { expand: false });

describe("config edits keep what they do not touch", () => {
  it("add: a local and a remote server; comments, unknown keys and the others unchanged", () => {
    let text = addServer(BASE, "git", { command: "uvx", args: ["mcp-git"], env: { A: "1" } });
    text = addServer(text, "api", { url: "https://api.example.com/mcp", headers: { Authorization: "Bearer ${secret:api}" } });
    expect(text).toContain("// my servers");
    expect(text).toContain("/* the one I use most */");
    expect(text).toContain('"theme": "dark", // not ours: kept');
    expect(text).toContain('"note": "keep me"');
    const parsed = servers(text);
    expect(parsed.servers.map((s) => s.name)).toEqual(["files", "web", "git", "api"]);
    expect(parsed.servers[2]).toMatchObject({ command: "uvx", args: ["mcp-git"], env: { A: "1" } });
    expect(parsed.servers[3]).toMatchObject({ type: "remote", headers: { Authorization: "Bearer ${secret:api}" } });
  });

  it("add into an empty file writes mcpServers; into a bare map, the bare map", () => {
    expect(JSON.parse(addServer("", "a", { command: "x" }))).toEqual({ mcpServers: { a: { command: "x" } } });
    expect(JSON.parse(addServer('{ "b": { "command": "y" } }', "a", { command: "x" }))).toEqual({ b: { command: "y" }, a: { command: "x" } });
  });

  it("refuses a clash, a bad url, both command and url, headers on a local server", () => {
    expect(() => addServer(BASE, "files", { command: "x" })).toThrow(/already exists/);
    expect(() => addServer(BASE, "bad", { url: "ftp://x" })).toThrow(ConfigEditError);
    expect(() => addServer(BASE, "bad", { url: "not a url" })).toThrow(/not a valid URL/);
    expect(() => addServer(BASE, "bad", { command: "x", url: "https://a" })).toThrow(/not both/);
    expect(() => addServer(BASE, "bad", { command: "x", headers: { A: "b" } })).toThrow(/remote/);
    expect(() => addServer(BASE, " ", { command: "x" })).toThrow(/name/);
  });

  it("edit changes only the fields given and keeps the entry's other keys", () => {
    const text = editServer(BASE, "files", { args: ["-y", "files@2"] });
    expect(text).toContain('"note": "keep me"');
    expect(text).toContain('"timeout": 5000');
    expect(servers(text).servers[0]).toMatchObject({ command: "npx", args: ["-y", "files@2"], timeout: 5000 });
    const remote = editServer(BASE, "files", { url: "https://files.example.com/mcp" });
    expect(servers(remote).servers[0]).toMatchObject({ type: "remote", url: "https://files.example.com/mcp" });
    expect(remote).not.toContain('"npx"');
    expect(() => editServer(BASE, "nope", { command: "x" })).toThrow(/no server named/);
  });

  it("disable and enable in the file's own spelling", () => {
    const off = setServerEnabled(BASE, "files", false);
    expect(servers(off).servers[0].enabled).toBe(false);
    expect(off).toMatch(/"disabled": true/);
    expect(servers(setServerEnabled(off, "files", true)).servers[0].enabled).toBe(true);
    const webOff = setServerEnabled(BASE, "web", false);
    expect(webOff).toMatch(/"enabled": false/);
    expect(webOff).not.toMatch(/"disabled"/);
    expect(servers(setServerEnabled(webOff, "web", true)).servers[1].enabled).toBe(true);
  });

  it("remove takes the one entry out", () => {
    const text = removeServer(BASE, "web");
    expect(servers(text).servers.map((s) => s.name)).toEqual(["files"]);
    expect(text).toContain("/* the one I use most */");
    expect(() => removeServer(BASE, "web2")).toThrow(/no server named/);
  });
});

describe("editConfigFile", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "edit-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes the edit; a broken file or a refused edit leaves the file byte for byte", async () => {
    const path = join(dir, "mcp.json");
    await writeFile(path, BASE);
    await editConfigFile(path, (t) => addServer(t, "x", { command: "x" }));
    expect(servers(await readFile(path, "utf8")).servers.map((s) => s.name)).toContain("x");
    const before = await readFile(path, "utf8");
    await expect(editConfigFile(path, (t) => addServer(t, "x", { command: "x" }))).rejects.toThrow(/already exists/);
    expect(await readFile(path, "utf8")).toBe(before);
    const broken = '{ "mcpServers": { "a": { "command": "x" }, } oops';
    await writeFile(path, broken);
    await expect(editConfigFile(path, (t) => addServer(t, "y", { command: "y" }))).rejects.toThrow(/line 1, column/);
    expect(await readFile(path, "utf8")).toBe(broken);
  });

  it("creates a missing file", async () => {
    const path = join(dir, "sub", "mcp.json");
    await editConfigFile(path, (t) => addServer(t, "a", { command: "x" }));
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ mcpServers: { a: { command: "x" } } });
  });
});
