// The Agents view's long-waits switch in Chromium over the real core with a config file of its own:
// ticking "Wait past a minute for my answers" for Claude Code writes gateway.longWaits.agents
// ["claude-code"] into that file (its comments kept), the core follows the file, and from then
// the gateway lists toolnexus_wait to Claude Code (here an SDK client under that name). HOME and
// friends point at a temporary copy of test/fixtures/agents, as in agents-view.test.ts.
// Screenshots at 1280×800 and 420×640, light and dark, each checked for overflow and by axe.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { repoRoot, shootAll, startApp, useBrowser } from "./harness";
import { until } from "../helpers/poll";

const UI_TIMEOUT = 20_000;
const CONFIG = '{\n  // the person\'s own notes stay\n  "mcpServers": {}\n}\n';

let root: string;
let configPath: string;

const e2e = useBrowser({
  uiTimeout: UI_TIMEOUT,
  app: async () => {
    root = await mkdtemp(join(tmpdir(), "agents-long-waits-"));
    await cp(join(repoRoot, "test", "fixtures", "agents"), root, { recursive: true });
    const home = join(root, "home");
    Object.assign(process.env, { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, ".config"), APPDATA: join(home, "AppData", "Roaming") });
    delete process.env.CLAUDE_CONFIG_DIR;
    delete process.env.CODEX_HOME;
    delete process.env.TOOLNEXUS_COMPANION_URL;
    configPath = join(root, "mcp.json");
    await writeFile(configPath, CONFIG);
    return startApp(undefined, { core: { configPath } });
  },
  closeContexts: "after-all",
  afterAll: async () => {
    if (root) await rm(root, { recursive: true, force: true });
  },
});

async function gatewayTools(name: string): Promise<string[]> {
  const client = new Client({ name, version: "1.0.0" }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${e2e.app.server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${e2e.app.core.token()}` } } }));
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe("Agents view: long waits in Chromium", { timeout: 120_000 }, () => {
  it("the switch writes the agent's setting, the gateway follows it, and the view reads well at 1280 and 420 px", async () => {
    expect(await gatewayTools("claude-code")).not.toContain("toolnexus_wait");
    const page = await e2e.open({
      viewport: { width: 1280, height: 800 },
      ready: async (p) => {
        await p.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Agents" }).click();
        await p.getByRole("list", { name: "Agents" }).getByRole("listitem").first().waitFor();
      },
    });
    const card = page.getByRole("article", { name: "Claude Code", exact: true });
    const box = card.getByRole("checkbox", { name: "Wait past a minute for my answers" });
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await until(async () => (await readFile(configPath, "utf8")).includes('"claude-code": true'), 10_000);
    const text = await readFile(configPath, "utf8");
    expect(text).toContain("the person's own notes stay");
    expect(JSON.parse(text.replace(/\/\/.*\n/, "\n"))).toEqual({ mcpServers: {}, gateway: { longWaits: { agents: { "claude-code": true } } } });
    // The core follows the file: the next session of Claude Code is offered toolnexus_wait; another agent is not.
    await until(async () => (await gatewayTools("claude-code")).includes("toolnexus_wait"), 15_000);
    expect(await gatewayTools("cursor")).not.toContain("toolnexus_wait");
    expect(await box.isChecked()).toBe(true);
    expect(e2e.errors(page)).toEqual([]);
    await shootAll(page, "agents-long-waits", { show: "article .long-waits" });
  });
});
