// agents:list / agents:plan / agents:apply against a temporary copy of test/fixtures/agents: the
// handlers read a Machine whose HOME, XDG_CONFIG_HOME and APPDATA point there, never the real ones.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentsHandlers, type AgentsHandlers } from "../../../../src/main/client-configs/agents-handlers";
import { toEnvelope } from "../../../../src/main/rpc/envelope";
import type { Machine } from "../../../../src/main/client-configs/types";
import type { AgentsPlan } from "../../../../src/shared/agents";

const FIXTURE = fileURLToPath(new URL("../../../fixtures/agents", import.meta.url));
const TOKEN = "tok-literal-0123456789";

let root: string;
let home: string;
let handlers: AgentsHandlers;

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out[join(entry.parentPath, entry.name).slice(dir.length)] = await readFile(join(entry.parentPath, entry.name), "latin1");
  }
  return out;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agents-handlers-"));
  await cp(FIXTURE, root, { recursive: true });
  home = join(root, "home");
  const machine = (project?: string): Machine => ({
    platform: "linux",
    home,
    env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), APPDATA: join(home, "AppData", "Roaming") },
    project,
  });
  handlers = createAgentsHandlers({
    machine,
    companionUrl: () => "http://127.0.0.1:7315",
    cli: () => ({ command: "toolnexus-companion", args: [] }),
    token: () => TOKEN,
    now: () => new Date("2026-11-30T12:00:00Z"),
  });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("agents handlers in a temporary HOME", () => {
  it("agents:list: the fixture's agents found, none connected, Claude Code and Codex hooks not installed", async () => {
    const agents = await handlers["agents:list"](undefined);
    const ids = agents.map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining(["claude-code", "cursor", "vscode", "windsurf", "codex", "gemini", "claude-desktop", "opencode", "zed"]));
    for (const a of agents) {
      expect(a.found, a.id).toBe(true);
      expect(a.connections, a.id).toEqual([]);
    }
    expect(agents.find((a) => a.id === "claude-code")!.hook).toEqual({ installed: [] });
    expect(agents.find((a) => a.id === "cursor")!.hook).toBeUndefined();
  });

  it("agents:plan shows a diff, the backup and how the token is carried, and writes nothing", async () => {
    const before = await snapshot(root);
    const plan = await handlers["agents:plan"]({ agent: "claude-code", connect: true, hooks: true });
    expect(await snapshot(root)).toEqual(before);
    expect(plan.files.map((f) => f.what)).toEqual(["server", "hook"]);
    const server = plan.files[0];
    expect(server.file).toBe(join(home, ".claude.json"));
    expect(server.changes).toBe(true);
    expect(server.backup).toBe(`${server.file}.bak-<time>`);
    expect(server.diff).toContain('+    "toolnexus": {');
    expect(server.diff).toContain('"connect"');
    expect(plan.files[1].diff).toContain("hook claude-code");
    expect(plan.notes.join(" ")).toMatch(/keychain/);
    expect(plan.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it("agents:apply writes exactly what the plan showed, with a backup, then list says connected and hooked", async () => {
    const file = join(home, ".claude.json");
    const original = await readFile(file, "utf8");
    const plan = await handlers["agents:plan"]({ agent: "claude-code", connect: true, hooks: true });
    const result = await handlers["agents:apply"]({ agent: "claude-code", connect: true, hooks: true, fingerprint: plan.fingerprint });
    expect(result.written.map((w) => w.file)).toEqual(plan.files.filter((f) => f.changes).map((f) => f.file));
    const backup = result.written[0].backup!;
    expect(basename(backup)).toBe(".claude.json.bak-20261130T120000Z");
    expect(await readFile(backup, "utf8")).toBe(original);
    // The diff shown was of exactly the bytes now on disk: re-diffing original → now gives it again.
    const { lineDiff } = await import("../../../../src/main/client-configs/text-diff");
    expect(lineDiff(original, await readFile(file, "utf8"), file)).toBe(plan.files[0].diff);
    const claude = result.agents.find((a) => a.id === "claude-code")!;
    expect(claude.connections.map((c) => c.file)).toContain(file);
    expect(claude.hook!.installed.length).toBe(1);

    // Planning the same again: nothing to change; disconnecting restores the original bytes.
    const again = await handlers["agents:plan"]({ agent: "claude-code", connect: true, hooks: true });
    expect(again.files.every((f) => !f.changes)).toBe(true);
    const off = await handlers["agents:plan"]({ agent: "claude-code", connect: false, hooks: true });
    await handlers["agents:apply"]({ agent: "claude-code", connect: false, hooks: true, fingerprint: off.fingerprint });
    expect(await readFile(file, "utf8")).toBe(original);
  });

  it("agents:apply refuses when the file changed between plan and apply, and writes nothing", async () => {
    const file = join(home, ".cursor", "mcp.json");
    const plan = await handlers["agents:plan"]({ agent: "cursor", connect: true });
    const edited = `${await readFile(file, "utf8")}\n`;
    await writeFile(file, edited);
    const before = await snapshot(root);
    const envelope = await toEnvelope(() => handlers["agents:apply"]({ agent: "cursor", connect: true, fingerprint: plan.fingerprint }));
    expect(envelope.ok).toBe(false);
    if (!envelope.ok) expect(envelope.error.code).toBe("plan-changed");
    expect(await snapshot(root)).toEqual(before);
    expect((await readdir(dirname(file))).filter((n) => n.includes(".bak-"))).toEqual([]);
  });

  it("agents:apply refuses a plan made with other options (a fingerprint of another plan)", async () => {
    const plan = await handlers["agents:plan"]({ agent: "cursor", connect: true, via: "shim" });
    const envelope = await toEnvelope(() => handlers["agents:apply"]({ agent: "cursor", connect: true, via: "http", fingerprint: plan.fingerprint }));
    expect(envelope.ok).toBe(false);
    if (!envelope.ok) expect(envelope.error.code).toBe("plan-changed");
  });

  it("Zed over HTTP: no plan until the person chooses; with literalToken the token is written, and said so", async () => {
    const before = await snapshot(root);
    const asked: AgentsPlan = await handlers["agents:plan"]({ agent: "zed", connect: true, via: "http" });
    expect(asked.choice?.kind).toBe("literal-token");
    expect(asked.files).toEqual([]);
    const refused = await toEnvelope(() => handlers["agents:apply"]({ agent: "zed", connect: true, via: "http", fingerprint: asked.fingerprint }));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe("choice-needed");
    expect(await snapshot(root)).toEqual(before);

    const chosen = await handlers["agents:plan"]({ agent: "zed", connect: true, via: "http", literalToken: true });
    expect(chosen.choice).toBeUndefined();
    expect(chosen.notes.join(" ")).toMatch(/Only a literal token is possible here/);
    expect(chosen.files[0].diff).toContain(TOKEN);
    await handlers["agents:apply"]({ agent: "zed", connect: true, via: "http", literalToken: true, fingerprint: chosen.fingerprint });
    expect(await readFile(join(home, ".config", "zed", "settings.json"), "utf8")).toContain(TOKEN);
  });

  it("refuses bad arguments and agents without a hook", async () => {
    for (const arg of [undefined, {}, { agent: "cursor" }, { agent: "cursor", connect: "yes" }, { agent: "cursor", connect: true, via: "ftp" }, { agent: "cursor", connect: true, project: "relative/dir" }]) {
      const e = await toEnvelope(() => handlers["agents:plan"](arg));
      expect(e.ok, JSON.stringify(arg)).toBe(false);
      if (!e.ok) expect(e.error.code).toBe("invalid-argument");
    }
    const unknown = await toEnvelope(() => handlers["agents:plan"]({ agent: "emacs", connect: true }));
    expect(!unknown.ok && unknown.error.code).toBe("unknown-agent");
    const noHook = await toEnvelope(() => handlers["agents:plan"]({ agent: "cursor", connect: true, hooks: true }));
    expect(!noHook.ok && noHook.error.code).toBe("cannot-edit");
    const noFingerprint = await toEnvelope(() => handlers["agents:apply"]({ agent: "cursor", connect: true }));
    expect(!noFingerprint.ok && noFingerprint.error.code).toBe("invalid-argument");
  });
});
