// Files and folders other users can change are not trusted (the rule OpenSSH applies to ~/.ssh):
// a config planted in a world-writable folder, a config others can write, or one another user owns
// starts no server — the config loads as failed with a sentence that says what to chmod — and the
// CLI refuses to write into such a place. A config that carries a secret ends 0600 whatever mode
// it had.
import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONFIG_ERROR_ENTRY, createCore, type Core } from "../../../src/main/app/core";
import { browserPlatform } from "../../../src/main/app/serve";
import { readRulesFile } from "../../../src/main/rules/file";
import { HistoryStore } from "../../../src/main/history/store";
import { until } from "../../helpers/poll";
import { cli } from "./cli-harness";

let dir: string;
let cores: Core[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "local-trust-perms-"));
});
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

/** A config whose one server, if it were ever started, leaves `marker` behind. */
function planted(marker: string): string {
  const script = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`;
  return `${JSON.stringify({ mcpServers: { planted: { command: process.execPath, args: ["-e", script] } } }, null, 2)}\n`;
}

async function start(configPath: string): Promise<{ core: Core; logs: string[] }> {
  const logs: string[] = [];
  const core = await createCore({ configPath, platform: browserPlatform, log: (l) => logs.push(l) });
  cores.push(core);
  return { core, logs };
}

const configError = (core: Core) => core.servers().find((v) => v.name === CONFIG_ERROR_ENTRY)?.error;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a config others can change runs nothing", { timeout: 60_000 }, () => {
  it("a 0666 config: not run; the config fails with the chmod to run", async () => {
    const folder = join(dir, "conf");
    await mkdir(folder, { mode: 0o700 });
    const path = join(folder, "mcp.json");
    const marker = join(dir, "ran-0666");
    await writeFile(path, planted(marker));
    await chmod(path, 0o666);
    const { core } = await start(path);
    await pause(1000);
    expect(existsSync(marker)).toBe(false);
    expect(core.servers().map((v) => v.name)).toEqual([CONFIG_ERROR_ENTRY]);
    expect(configError(core)).toContain(`chmod go-w ${path}`);
  });

  it("a 0777 folder: a config planted after the start (the watcher sees it) is not run", async () => {
    const folder = join(dir, "open");
    await mkdir(folder);
    await chmod(folder, 0o777);
    const path = join(folder, "mcp.json");
    const marker = join(dir, "ran-planted");
    const { core, logs } = await start(path);
    expect(logs.join("\n")).toContain(`chmod go-w ${folder}`);
    await writeFile(path, planted(marker), { mode: 0o644 });
    if (isRoot) await chown(path, NOBODY, NOBODY);
    await until(() => configError(core) !== undefined, 5000, "the planted config refused");
    await pause(800);
    expect(existsSync(marker)).toBe(false);
    expect(configError(core)).toContain(`chmod go-w ${folder}`);
    expect(core.servers().filter((v) => v.name === "planted")).toEqual([]);
  });

  it("a config another user owns (uid 65534) is refused", async (context) => {
    // chown to another user needs root; CI runs these tests as root.
    if (!isRoot) return context.skip();
    const path = join(dir, "mcp.json");
    const marker = join(dir, "ran-nobody");
    await writeFile(path, planted(marker), { mode: 0o644 });
    await chown(path, NOBODY, NOBODY);
    const { core } = await start(path);
    await pause(1000);
    expect(existsSync(marker)).toBe(false);
    expect(configError(core)).toMatch(/belongs to another user \(uid 65534\)/);
  });
});

describe("the CLI writes nowhere others can change", { timeout: 60_000 }, () => {
  it("`servers add` into a 0777 folder: refused with the chmod, nothing written", async () => {
    const folder = join(dir, "open");
    await mkdir(folder);
    await chmod(folder, 0o777);
    const path = join(folder, "mcp.json");
    const result = await cli(["servers", "add", "x", "--command", "echo", "--config", path]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`toolnexus-companion servers: The folder ${folder} can be changed by every user (mode 0777), so the companion does not trust it; run: chmod go-w ${folder}`);
    expect(existsSync(path)).toBe(false);
  });

  it("a header secret added to an existing 0644 config: the file ends 0600", async () => {
    const path = join(dir, "mcp.json");
    await writeFile(path, '{ "mcpServers": {} }\n', { mode: 0o644 });
    await chmod(path, 0o644);
    const result = await cli(["servers", "add", "api", "--url", "https://api.example.com/mcp", "--header", "Authorization=Bearer abc123", "--config", path]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(await readFile(path, "utf8")).toContain("Bearer abc123");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });
});

describe("rules others can change answer nothing", () => {
  it("a group-writable rules file is not read; the problem names the chmod", async () => {
    const path = join(dir, "rules.json");
    await writeFile(path, '{ "version": 1, "rules": [] }\n');
    await chmod(path, 0o664);
    const read = readRulesFile(path);
    expect(read.rules).toEqual([]);
    expect(read.problem).toBe(`The file ${path} can be changed by its group (mode 0664), so the companion does not trust it; run: chmod go-w ${path}`);
  });
});

describe("history others can change is not opened", () => {
  it("a 0666 history file: unavailable, the detail names the chmod; a private one opens and ends 0600", async () => {
    const open = join(dir, "open.sqlite");
    await writeFile(open, "");
    await chmod(open, 0o666);
    const refused = new HistoryStore({ path: open, log: () => {} });
    try {
      expect(refused.status()).toMatchObject({ state: "unavailable", detail: expect.stringContaining(`chmod go-w ${open}`) });
    } finally {
      refused.close();
    }
    const mine = join(dir, "mine.sqlite");
    const first = new HistoryStore({ path: mine, log: () => {} });
    first.close();
    await chmod(mine, 0o644);
    const again = new HistoryStore({ path: mine, log: () => {} });
    try {
      expect(again.status().state).toBe("ok");
      expect((await stat(mine)).mode & 0o777).toBe(0o600);
    } finally {
      again.close();
    }
  });
});
