// servers:entry / servers:save / servers:stopDemo as main serves them, on a real config file in a
// temporary folder: a form's add and edit are written with the file's comments kept; every refusal
// (bad name, no command, a URL that is not http(s), env names, non-text values) comes back as an
// error on its field with the file byte for byte unchanged; secrets never reach the page.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorEnvelope } from "../../../../../src/main/rpc/envelope";
import { createServerManagementHandlers } from "../../../../../src/main/mcp/server-handlers";
import { rawServerMap } from "../../../../../src/main/mcp/config/parse";
import { parseConfigText } from "../../../../../src/main/base/config-text";
import type { ServerView } from "../../../../../src/shared/types";
import type { ServerFormValue } from "../../../../../src/shared/server-form";

const FILE = `{
  // my servers, laid out by hand
  "mcpServers": {
    "files": { "command": "npx", "args": ["-y", "files-server", "--api-key=sk-live-abcdefghijklmnop"], "env": { "LOG_LEVEL": "debug", "API_TOKEN": "s3cr3t-Token-9f8e7d6c5b4a" } },
    /* remote one */
    "hosted": { "url": "https://mcp.example.com/mcp?token=abc123", "headers": { "Authorization": "Bearer literal-xyz", "X-Team": "\${TEAM}" }, "timeout": 9000 }
  }
}
`;

let dir: string;
let configPath: string;
let stored: Map<string, string>;
let views: ServerView[];
let handlers: ReturnType<typeof createServerManagementHandlers>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "server-form-"));
  configPath = join(dir, "mcp.json");
  await writeFile(configPath, FILE);
  stored = new Map();
  views = [];
  handlers = createServerManagementHandlers({
    configPath,
    servers: () => views,
    keychain: { set: async (name, value) => void stored.set(name, value) },
  });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const local = (over: Partial<ServerFormValue> = {}): ServerFormValue => ({ name: "echo", kind: "local", command: "node", args: ["server.mjs"], env: [], cwd: "", url: "", headers: [], ...over });
const entries = async () => rawServerMap(parseConfigText(await readFile(configPath, "utf8"))) as Record<string, Record<string, unknown>>;
const refusal = async (p: Promise<unknown>): Promise<{ error: { code: string; message: string } }> => {
  try {
    await p;
  } catch (error) {
    return errorEnvelope(error) as { error: { code: string; message: string } };
  }
  throw new Error("expected a refusal");
};

describe("servers:save adds", () => {
  it("writes a local server with args, env and cwd, keeping the comments", async () => {
    const result = await handlers["servers:save"]({
      value: local({ args: ["server.mjs", "", "--verbose"], env: [{ name: "MODE", value: "test" }, { name: "", value: "" }], cwd: "/srv/echo" }),
    });
    expect(result.saved).toBe(true);
    expect(result.fieldErrors).toEqual({});
    const text = await readFile(configPath, "utf8");
    expect(text).toContain("// my servers, laid out by hand");
    expect(text).toContain("/* remote one */");
    expect((await entries()).echo).toEqual({ command: "node", args: ["server.mjs", "--verbose"], env: { MODE: "test" }, cwd: "/srv/echo" });
  });

  it("keeps a header's value in the keychain and writes only the reference", async () => {
    const result = await handlers["servers:save"]({
      value: { ...local({ name: "api", kind: "remote", command: "", args: [] }), url: "https://api.example.com/mcp", headers: [{ name: "Authorization", value: "Bearer typed-token-123", keychain: true }] },
    });
    expect(result.saved).toBe(true);
    expect(result.storedSecrets).toEqual(["api.Authorization"]);
    expect(stored.get("api.Authorization")).toBe("Bearer typed-token-123");
    const text = await readFile(configPath, "utf8");
    expect(text).not.toContain("typed-token-123");
    expect((await entries()).api).toEqual({ url: "https://api.example.com/mcp", headers: { Authorization: "${secret:api.Authorization}" } });
  });

  it.each([
    ["an empty name", local({ name: "" }), "name"],
    ["a name in use", local({ name: "files" }), "name"],
    ["a name with spaces around it", local({ name: " echo " }), "name"],
    ["no command", local({ command: "  " }), "command"],
    ["a relative cwd", local({ cwd: "project" }), "cwd"],
    ["an env name with a dash", local({ env: [{ name: "MY-VAR", value: "1" }] }), "env.0.name"],
    ["the same env name twice", local({ env: [{ name: "A", value: "1" }, { name: "A", value: "2" }] }), "env.1.name"],
    ["an argument that is not text", local({ args: ["ok", 42 as unknown as string] }), "args.1"],
    ["a URL that is not http(s)", local({ kind: "remote", url: "file:///etc/passwd" }), "url"],
    ["a URL that is not a URL", local({ kind: "remote", url: "example dot com" }), "url"],
    ["no URL", local({ kind: "remote", url: "" }), "url"],
    ["a header name with a space", local({ kind: "remote", url: "https://x.example/mcp", headers: [{ name: "X Team", value: "a" }] }), "headers.0.name"],
    ["a header value over two lines", local({ kind: "remote", url: "https://x.example/mcp", headers: [{ name: "X-Team", value: "a\r\nHost: evil" }] }), "headers.0.value"],
    ["no kind", local({ kind: "neither" as "local" }), "kind"],
  ])("refuses %s on its field and writes nothing", async (_what, value, field) => {
    const result = await handlers["servers:save"]({ value });
    expect(result.saved).toBe(false);
    expect(Object.keys(result.fieldErrors)).toContain(field);
    expect(result.fieldErrors[field]![0]).toMatch(/\w/);
    expect(await readFile(configPath, "utf8")).toBe(FILE);
    expect(stored.size).toBe(0);
  });

  it("refuses a malformed argument (no values object) as an argument error", async () => {
    expect((await refusal(handlers["servers:save"]({ value: "nope" }))).error.code).toBe("invalid-argument");
    expect(await readFile(configPath, "utf8")).toBe(FILE);
  });

  it("leaves a config with a syntax error alone", async () => {
    await writeFile(configPath, '{ "mcpServers": { ');
    expect((await refusal(handlers["servers:save"]({ value: local() }))).error.code).toBe("config-error");
    expect(await readFile(configPath, "utf8")).toBe('{ "mcpServers": { ');
  });
});

describe("servers:entry and editing", () => {
  it("shows references as written and hides literal secrets (masked or kept)", async () => {
    const files = await handlers["servers:entry"]({ name: "files" });
    expect(files.kind).toBe("local");
    expect(files.args).toEqual(["-y", "files-server", "--api-key=•••"]);
    expect(files.env).toEqual([{ name: "LOG_LEVEL", value: "debug" }, { name: "API_TOKEN", value: "", kept: true }]);
    const hosted = await handlers["servers:entry"]({ name: "hosted" });
    expect(hosted.kind).toBe("remote");
    expect(hosted.url).toBe("https://mcp.example.com/mcp?token=•••");
    expect(hosted.headers).toEqual([{ name: "Authorization", value: "", kept: true }, { name: "X-Team", value: "${TEAM}" }]);
    expect(JSON.stringify([files, hosted])).not.toMatch(/sk-live|s3cr3t|literal-xyz|abc123/);
  });

  it("an edit that adds an argument keeps masked and kept values and the entry's other keys", async () => {
    const files = await handlers["servers:entry"]({ name: "files" });
    const result = await handlers["servers:save"]({ original: "files", value: { ...files, args: [...files.args, "--read-only"] } });
    expect(result.saved).toBe(true);
    expect((await entries()).files).toEqual({
      command: "npx",
      args: ["-y", "files-server", "--api-key=sk-live-abcdefghijklmnop", "--read-only"],
      env: { LOG_LEVEL: "debug", API_TOKEN: "s3cr3t-Token-9f8e7d6c5b4a" },
    });
    const hosted = await handlers["servers:entry"]({ name: "hosted" });
    expect((await handlers["servers:save"]({ original: "hosted", value: { ...hosted, headers: [...hosted.headers, { name: "X-Extra", value: "1" }] } })).saved).toBe(true);
    expect((await entries()).hosted).toEqual({
      url: "https://mcp.example.com/mcp?token=abc123",
      headers: { Authorization: "Bearer literal-xyz", "X-Team": "${TEAM}", "X-Extra": "1" },
      timeout: 9000,
    });
    const text = await readFile(configPath, "utf8");
    expect(text).toContain("// my servers, laid out by hand");
    expect(text).toContain("/* remote one */");
  });

  it("a kept literal header can be moved into the keychain", async () => {
    const hosted = await handlers["servers:entry"]({ name: "hosted" });
    const headers = hosted.headers.map((h) => (h.name === "Authorization" ? { ...h, keychain: true } : h));
    expect((await handlers["servers:save"]({ original: "hosted", value: { ...hosted, headers } })).saved).toBe(true);
    expect(stored.get("hosted.Authorization")).toBe("Bearer literal-xyz");
    expect((await entries()).hosted.headers).toEqual({ Authorization: "${secret:hosted.Authorization}", "X-Team": "${TEAM}" });
  });

  it("a bad edit is refused on its field with the file unchanged", async () => {
    const files = await handlers["servers:entry"]({ name: "files" });
    const result = await handlers["servers:save"]({ original: "files", value: { ...files, env: [...files.env, { name: "1BAD", value: "x" }] } });
    expect(result.saved).toBe(false);
    expect(Object.keys(result.fieldErrors)).toEqual(["env.2.name"]);
    expect(await readFile(configPath, "utf8")).toBe(FILE);
  });

  it("an unknown server has no entry to edit", async () => {
    expect((await refusal(handlers["servers:entry"]({ name: "nope" }))).error.code).toBe("unknown-server");
  });
});

describe("the demo (session only)", () => {
  const demo: ServerView = { name: "demo", state: "connected", toolCount: 2, tools: [], sessionOnly: true };

  it("Disable, Remove and Edit say it is for this session and name Stop demo; the file is untouched", async () => {
    views = [demo];
    for (const call of [
      handlers["servers:setEnabled"]({ name: "demo", enabled: false }),
      handlers["servers:remove"]({ name: "demo" }),
      handlers["servers:entry"]({ name: "demo" }),
      handlers["servers:save"]({ original: "demo", value: local({ name: "demo" }) }),
    ]) {
      const refused = await refusal(call);
      expect(refused.error.code).toBe("session-only");
      expect(refused.error.message).toMatch(/Stop demo/);
    }
    expect(await readFile(configPath, "utf8")).toBe(FILE);
  });

  it("Stop demo without a supervisor is unsupported rather than a silent no-op", async () => {
    expect((await refusal(handlers["servers:stopDemo"](undefined))).error.code).toBe("unsupported");
  });
});

describe("without a keychain", () => {
  it("refuses Keep it in the keychain in words and writes nothing", async () => {
    const bare = createServerManagementHandlers({ configPath, servers: () => [] });
    const result = await bare["servers:save"]({
      value: { ...local({ name: "api", kind: "remote", command: "", args: [] }), url: "https://api.example.com/mcp", headers: [{ name: "Authorization", value: "Bearer t", keychain: true }] },
    });
    expect(result.saved).toBe(false);
    expect(result.fieldErrors[""]![0]).toMatch(/no keychain/);
    expect(await readFile(configPath, "utf8")).toBe(FILE);
  });
});
