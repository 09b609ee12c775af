// Every client writer on configs written from that client's documentation (test/fixtures/agents):
// connect adds only the companion's entry (the readers find it, and everything they found before),
// a second connect changes nothing, and disconnect gives back the original bytes — also with CRLF
// line ends and from an empty or missing file.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { clientById } from "../../../../src/main/client-configs";
import { ENTRY_NAME, isCompanionEntry, type ConnectOptions, type Via } from "../../../../src/main/client-configs/connect-form";
import { EditError } from "../../../../src/main/client-configs/json-edit";
import { parseToml } from "../../../../src/main/client-configs/toml-edit";
import type { Machine } from "../../../../src/main/client-configs/types";
import { undo, type ClientWriter } from "../../../../src/main/client-configs/writer";
import { WRITERS, writerById } from "../../../../src/main/client-configs/writers";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/agents", import.meta.url));
const fixture = (path: string) => readFileSync(join(FIXTURES, path), "utf8");
const machine: Machine = { platform: "linux", home: "/home/dev", env: {}, project: "/home/dev/shop" };
const GATEWAY = "http://127.0.0.1:7315/mcp";
const options = (via: Via, extra: Partial<ConnectOptions> = {}): ConnectOptions => ({
  via,
  cli: { command: "node", args: ["/opt/toolnexus/bin/toolnexus-companion"] },
  gatewayUrl: GATEWAY,
  ...extra,
});

/** Each writer's fixture files, user and project. */
const FILES: Record<string, string[]> = {
  "claude-desktop": ["home/.config/Claude/claude_desktop_config.json"],
  "claude-code": ["home/.claude.json", "project/.mcp.json"],
  cursor: ["home/.cursor/mcp.json"],
  vscode: ["home/.config/Code/User/mcp.json"],
  windsurf: ["home/.codeium/windsurf/mcp_config.json"],
  zed: ["home/.config/zed/settings.json", "project/.zed/settings.json"],
  opencode: ["home/.config/opencode/opencode.json", "project/opencode.jsonc"],
  codex: ["home/.codex/config.toml", "project/.codex/config.toml"],
  gemini: ["home/.gemini/settings.json"],
};

function forms(writer: ClientWriter): ConnectOptions[] {
  const out = [options("shim"), options("shim", { companionUrl: "http://127.0.0.1:9999" })];
  if (writer.http === "env" || writer.http === "input") out.push(options("http"));
  if (writer.http === "literal") out.push(options("http", { literalToken: "tok-123" }));
  return out;
}

function read(writer: ClientWriter, text: string, file: string) {
  const result = clientById(writer.id)!.read(text, { file, scope: "user" }, machine);
  expect(result.error).toBeUndefined();
  return result;
}

/** Nothing of `before` was dropped or reordered: it is a subsequence of `after`. */
function onlyAdded(before: string, after: string): boolean {
  let i = 0;
  for (let j = 0; j < after.length && i < before.length; j++) if (after[j] === before[i]) i++;
  return i === before.length;
}

function disconnect(writer: ClientWriter, text: string, form: ConnectOptions): string {
  return undo(text, writer.disconnect(text), (c) => writer.connect(c, form));
}

describe("client writers: connect, idempotence, exact disconnect", () => {
  for (const writer of WRITERS) {
    for (const path of FILES[writer.id]) {
      for (const form of forms(writer)) {
        for (const crlf of [false, true]) {
          const label = `${writer.id} ${path} via ${form.via}${form.companionUrl ? " (custom URL)" : ""}${crlf ? " CRLF" : ""}`;
          it(label, () => {
            const original = crlf ? fixture(path).replace(/\n/g, "\r\n") : fixture(path);
            const before = read(writer, original, path);
            const connected = writer.connect(original, form);
            expect(connected).not.toBe(original);
            expect(onlyAdded(original, connected)).toBe(true);
            if (crlf) expect(connected.replace(/\r\n/g, "")).not.toMatch(/\n/);
            const after = read(writer, connected, path);
            const ours = after.servers.find((s) => s.name === ENTRY_NAME);
            expect(ours, "the reader finds the companion's entry").toBeDefined();
            expect(isCompanionEntry(ours!.entry, GATEWAY)).toBe(true);
            if (form.companionUrl && form.via === "shim") expect(ours!.entry.env).toEqual({ TOOLNEXUS_COMPANION_URL: "http://127.0.0.1:9999" });
            expect(after.servers.filter((s) => s.name !== ENTRY_NAME)).toEqual(before.servers);
            expect(after.skipped).toEqual(before.skipped);
            expect(writer.connect(connected, form)).toBe(connected);
            expect(disconnect(writer, connected, form)).toBe(original);
          });
        }
      }
      it(`${writer.id}: from a missing file and back`, () => {
        const connected = writer.connect("", options("shim"));
        expect(read(writer, connected, path).servers.map((s) => s.name)).toEqual([ENTRY_NAME]);
        expect(writer.connect(connected, options("shim"))).toBe(connected);
      });
    }
  }
});

describe("what each client's entry looks like", () => {
  it("no token in any default entry; VS Code asks for it through a password input", () => {
    for (const writer of WRITERS) {
      const text = writer.connect("", options(writer.defaultVia));
      expect(text).not.toMatch(/tok-|Bearer [A-Za-z0-9]{8}/);
    }
    const vscode = writerById("vscode")!.connect("", options("http"));
    expect(JSON.parse(vscode)).toEqual({
      servers: { toolnexus: { type: "http", url: GATEWAY, headers: { Authorization: "Bearer ${input:toolnexus-token}" } } },
      inputs: [{ type: "promptString", id: "toolnexus-token", description: "Toolnexus Companion gateway token", password: true }],
    });
  });

  it("HTTP forms refer to the token the way each client expands variables", () => {
    const auth = (id: string, path: string[]) => {
      let v: unknown = JSON.parse(writerById(id)!.connect("", options("http")));
      for (const k of path) v = (v as Record<string, unknown>)[k];
      return v;
    };
    expect(auth("claude-code", ["mcpServers", "toolnexus", "headers", "Authorization"])).toBe("Bearer ${TOOLNEXUS_COMPANION_TOKEN}");
    expect(auth("cursor", ["mcpServers", "toolnexus", "headers", "Authorization"])).toBe("Bearer ${env:TOOLNEXUS_COMPANION_TOKEN}");
    expect(auth("windsurf", ["mcpServers", "toolnexus", "serverUrl"])).toBe(GATEWAY);
    expect(auth("gemini", ["mcpServers", "toolnexus", "httpUrl"])).toBe(GATEWAY);
    expect(auth("opencode", ["mcp", "toolnexus", "headers", "Authorization"])).toBe("Bearer {env:TOOLNEXUS_COMPANION_TOKEN}");
    expect(parseToml(writerById("codex")!.connect("", options("http")))).toEqual({ mcp_servers: { toolnexus: { url: GATEWAY, bearer_token_env_var: "TOOLNEXUS_COMPANION_TOKEN" } } });
  });

  it("Zed over HTTP needs the literal token; Claude Desktop's file cannot hold a remote server", () => {
    expect(() => writerById("zed")!.connect("", options("http"))).toThrow(EditError);
    expect(JSON.parse(writerById("zed")!.connect("", options("http", { literalToken: "tok-123" }))).context_servers.toolnexus).toEqual({
      url: GATEWAY,
      headers: { Authorization: "Bearer tok-123" },
    });
    expect(() => writerById("claude-desktop")!.connect("", options("http"))).toThrow(/only local/);
  });

  it("opencode's V2 layout gets the entry under mcp.servers, V1 under mcp", () => {
    const v2 = writerById("opencode")!.connect(fixture("project/opencode.jsonc"), options("shim"));
    expect(v2).toMatch(/"servers": \{\n\s+"playwright".*\n\s+"toolnexus": \{/s);
    const v1 = JSON.parse(writerById("opencode")!.connect(fixture("home/.config/opencode/opencode.json"), options("shim")));
    expect(v1.mcp.toolnexus).toEqual({ type: "local", command: ["node", "/opt/toolnexus/bin/toolnexus-companion", "connect"], enabled: true });
  });

  it("the new entry follows the file's indentation (tabs in VS Code's file, two spaces elsewhere)", () => {
    const vscode = writerById("vscode")!.connect(fixture("home/.config/Code/User/mcp.json"), options("http"));
    expect(vscode).toContain('\n\t\t"toolnexus": {\n\t\t\t"type": "http",');
    expect(vscode).toContain('\n\t\t{\n\t\t\t"type": "promptString",\n\t\t\t"id": "toolnexus-token"');
    const zedProject = writerById("zed")!.connect(fixture("project/.zed/settings.json"), options("shim"));
    expect(zedProject.split("\n")[0]).toMatch(/^\{ "tab_size": 4, "format_on_save": "on", "context_servers": \{"toolnexus":/);
  });

  it("a stale `toolnexus` entry (an old path) is updated in place; disconnect then removes it", () => {
    const old = fixture("project/.mcp.json").replace('"shop-db"', '"toolnexus": { "command": "node", "args": ["/old/bin/toolnexus-companion", "connect"] },\n    "shop-db"');
    const writer = writerById("claude-code")!;
    const updated = writer.connect(old, options("shim"));
    const servers = JSON.parse(updated).mcpServers;
    expect(Object.keys(servers)).toEqual(["toolnexus", "shop-db"]);
    expect(servers.toolnexus.args).toEqual(["/opt/toolnexus/bin/toolnexus-companion", "connect"]);
    expect(JSON.parse(disconnect(writer, updated, options("shim")))).toEqual(JSON.parse(fixture("project/.mcp.json")));
  });

  it("VS Code keeps the token input while another server still uses it, and never adds it twice", () => {
    const writer = writerById("vscode")!;
    const once = writer.connect(fixture("home/.config/Code/User/mcp.json"), options("http"));
    const shared = once.replace('"PERPLEXITY_API_KEY": "${input:perplexity-key}"', '"PERPLEXITY_API_KEY": "${input:perplexity-key}", "T": "${input:toolnexus-token}"');
    const removed = JSON.parse(disconnect(writer, shared, options("http")).replace(/\/\/.*$/gm, ""));
    expect(removed.servers.toolnexus).toBeUndefined();
    expect(removed.inputs.map((i: { id: string }) => i.id)).toEqual(["perplexity-key", "toolnexus-token"]);
    const viaShim = writer.connect(once, options("shim"));
    expect((viaShim.match(/"id": "toolnexus-token"/g) ?? []).length).toBe(1);
  });

  it("Codex: a config that defines mcp_servers inline is refused, not rewritten", () => {
    const inline = 'model = "o3"\nmcp_servers = { a = { command = "x" } }\n';
    expect(() => writerById("codex")!.connect(inline, options("shim"))).toThrow(EditError);
  });

  it("Codex: the table is appended after everything else and parses back to the same document plus it", () => {
    const original = fixture("home/.codex/config.toml");
    const connected = writerById("codex")!.connect(original, options("shim"));
    expect(connected.startsWith(original)).toBe(true);
    expect(connected.slice(original.length)).toBe('\n[mcp_servers.toolnexus]\ncommand = "node"\nargs = ["/opt/toolnexus/bin/toolnexus-companion", "connect"]\n');
    const doc = parseToml(connected) as { profiles: unknown; mcp_servers: Record<string, unknown> };
    expect(Object.keys(doc.mcp_servers)).toEqual(["context7", "figma", "toolnexus"]);
    expect(doc.profiles).toEqual({ fast: { model: "gpt-5-mini" } });
  });
});
