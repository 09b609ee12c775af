// agents:longWaits and the switch agents:list shows, against a temporary HOME (test/fixtures/agents)
// and a companion config of its own: only `gateway.longWaits.agents.<agent>` changes in the file.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentsHandlers } from "../../../../src/main/client-configs/agents-handlers";
import type { Machine } from "../../../../src/main/client-configs/types";

const FIXTURE = fileURLToPath(new URL("../../../fixtures/agents", import.meta.url));
const CONFIG = '{\n  // my servers\n  "mcpServers": { "files": { "command": "npx", "args": ["-y", "server-filesystem"] } }\n}\n';

let root: string;
let configPath: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agents-long-waits-"));
  await cp(FIXTURE, root, { recursive: true });
  configPath = join(root, "mcp.json");
  await writeFile(configPath, CONFIG);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function handlers(path: string | undefined) {
  const home = join(root, "home");
  const machine = (): Machine => ({ platform: "linux", home, env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), APPDATA: join(home, "AppData", "Roaming") } });
  return createAgentsHandlers({ machine, cli: () => ({ command: "toolnexus-companion", args: [] }), token: () => "t", ...(path ? { configPath: path } : {}) });
}

describe("the Agents view's long-waits switch", () => {
  it("is off until turned on, and writes only the agent's entry, keeping the file's comments", async () => {
    const h = handlers(configPath);
    const before = await h["agents:list"](undefined);
    expect(before.find((a) => a.id === "claude-code")!.longWaits).toBe(false);
    const after = await h["agents:longWaits"]({ agent: "claude-code", on: true });
    expect(after.find((a) => a.id === "claude-code")!.longWaits).toBe(true);
    expect(after.find((a) => a.id === "cursor")!.longWaits).toBe(false);
    const text = await readFile(configPath, "utf8");
    expect(text).toContain("// my servers");
    expect(JSON.parse(text.replace("// my servers", ""))).toEqual({
      mcpServers: { files: { command: "npx", args: ["-y", "server-filesystem"] } },
      gateway: { longWaits: { agents: { "claude-code": true } } },
    });
    const off = await h["agents:longWaits"]({ agent: "claude-code", on: false });
    expect(off.find((a) => a.id === "claude-code")!.longWaits).toBe(false);
  });

  it("refuses an unknown agent, bad arguments and a broken file, writing nothing", async () => {
    const h = handlers(configPath);
    await expect(h["agents:longWaits"]({ agent: "nobody", on: true })).rejects.toThrow(/No agent is called "nobody"/);
    await expect(h["agents:longWaits"]({ agent: "cursor", on: "yes" })).rejects.toThrow(/on/);
    await writeFile(configPath, '{ "mcpServers": ');
    await expect(h["agents:longWaits"]({ agent: "cursor", on: true })).rejects.toThrow();
    expect(await readFile(configPath, "utf8")).toBe('{ "mcpServers": ');
    // A file it cannot read offers no switch rather than a wrong one.
    expect((await h["agents:list"](undefined)).find((a) => a.id === "cursor")!.longWaits).toBeUndefined();
  });

  it("is not offered without a config file", async () => {
    const h = handlers(undefined);
    expect((await h["agents:list"](undefined)).find((a) => a.id === "cursor")!.longWaits).toBeUndefined();
    await expect(h["agents:longWaits"]({ agent: "cursor", on: true })).rejects.toThrow(/no config file/);
  });
});
