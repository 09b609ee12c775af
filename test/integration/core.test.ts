// The core against a real server-everything over stdio: a tool run elicits, the question lands
// in the Inbox, and answering it through the handlers completes the run.
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { mkdtemp, writeFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCore, CONFIG_ERROR_ENTRY, type Core } from "../../src/main/app/core";
import { browserPlatform } from "../../src/main/app/serve";
import type { InboxEvent } from "../../src/shared/types";
import type { ServerView } from "../../src/shared/types";
import { becomesTrue, until } from "../helpers/poll";

const require = createRequire(import.meta.url);
export const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const config = { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } };

/** Pids of this process's children whose command line mentions `needle`. */
function childrenRunning(needle: string): number[] {
  let out = "";
  try {
    out = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" });
  } catch {
    // ps exits 1 when there is no child at all.
  }
  return String(out)
    .split("\n")
    .filter((line) => line.includes(needle))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

describe("core with server-everything over stdio", () => {
  let core: Core;
  const events: InboxEvent[] = [];
  const lines: string[] = [];

  beforeAll(async () => {
    core = await createCore({ config, platform: browserPlatform, log: (l) => lines.push(l) });
    core.events.on("inbox:event", (e) => events.push(e));
  });
  afterAll(async () => {
    await core?.close();
  });

  it("connects the server and lists its tools in the servers view", async () => {
    const view = (await core.handlers["servers:list"](undefined)) as ServerView[];
    expect(view).toHaveLength(1);
    expect(view[0]).toMatchObject({ name: "everything", state: "connected", transport: "stdio" });
    expect(view[0].tools.map((t) => t.tool)).toContain("trigger-elicitation-request");
    expect(view[0].tools.find((t) => t.tool === "echo")?.name).toBe("everything_echo");
  });

  it("tools:run of trigger-elicitation-request puts a question in the Inbox; answering it completes the run", async () => {
    const run = core.handlers["tools:run"]({ tool: "everything_trigger-elicitation-request", args: {} });
    const added = await until(() => events.find((e): e is Extract<InboxEvent, { type: "added" }> => e.type === "added"), 15_000);
    expect(added.entry.source).toEqual({ server: "everything", tool: "trigger-elicitation-request" });
    expect(added.entry.request.kind).toBe("input");
    const schema = added.entry.request.data?.schema as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toHaveLength(13);
    expect((await core.handlers["inbox:list"](undefined)).map((e) => e.request.id)).toEqual([added.entry.request.id]);

    // An invalid answer is refused and the question stays.
    await expect(core.handlers["inbox:answer"]({ id: added.entry.request.id, ok: true, data: { name: "Ada", email: "not-an-email" } })).rejects.toThrow(
      /does not fit the form/,
    );
    const answer = await core.handlers["inbox:answer"]({
      id: added.entry.request.id,
      ok: true,
      data: { name: "Ada Lovelace", email: "ada@example.com", integer: 7, check: true },
    });
    expect(answer.data).toMatchObject({ name: "Ada Lovelace", integer: 7, number: 3.14 }); // defaults applied
    const result = await run;
    expect(result.isError).toBe(false);
    expect(result.output).toContain("User provided the requested information");
    expect(result.output).toContain("- Name: Ada Lovelace");
    expect(result.output).toContain("- Email: ada@example.com");
    expect(result.output).toContain("- Favorite Integer: 7");
    expect(events.map((e) => e.type)).toEqual(["added", "answered"]);
  });

  it("declining reaches the server as decline", async () => {
    events.length = 0;
    const run = core.handlers["tools:run"]({ tool: "everything_trigger-elicitation-request", args: {} });
    const added = await until(() => events.find((e): e is Extract<InboxEvent, { type: "added" }> => e.type === "added"), 15_000);
    await core.handlers["inbox:answer"]({ id: added.entry.request.id, ok: false, reason: "declined" });
    expect((await run).output).toContain("User declined");
  });

  it("url:open in browser mode returns the url for the page and opens nothing", async () => {
    events.length = 0;
    const run = core.handlers["tools:run"]({ tool: "everything_trigger-url-elicitation", args: { url: "https://example.com/consent" } });
    const added = await until(() => events.find((e): e is Extract<InboxEvent, { type: "added" }> => e.type === "added"), 15_000);
    expect(added.entry.request).toMatchObject({ kind: "authorization", url: "https://example.com/consent" });
    expect(await core.handlers["url:open"]({ id: added.entry.request.id })).toEqual({ opened: false, url: "https://example.com/consent" });
    await core.handlers["inbox:answer"]({ id: added.entry.request.id, ok: false, reason: "cancelled" });
    expect((await run).output).toMatch(/cancel/i);
  });

  it("settings report browser mode: start at login unsupported, gateway token set", async () => {
    const settings = core.settings();
    expect(settings.startAtLogin).toBe(false);
    expect(settings.gateway.tokenSet).toBe(true);
    expect(settings.secretNames).not.toContain("gateway-token");
    await expect(core.handlers["settings:startAtLogin"]({ enabled: true })).rejects.toThrow(/not available in browser mode/);
  });

  it("pauseNotifications updates settings and tells every view", async () => {
    const seen: boolean[] = [];
    const off = core.events.on("settings:changed", (s) => seen.push(s.notificationsPaused));
    core.pauseNotifications(60);
    expect(core.settings().notificationsPaused).toBe(true);
    core.pauseNotifications(null);
    await core.handlers["settings:resumeNotifications"](undefined);
    off();
    expect(seen).toEqual([true, true, false]);
  });

  it("gateway:rotateToken changes the token core hands the listener", async () => {
    const before = core.token();
    const { token } = (await core.handlers["gateway:rotateToken"](undefined)) as { token: string };
    expect(token).not.toBe(before);
    expect(core.token()).toBe(token);
  });
});

describe("core config file", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "tnc-core-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("a missing file starts with no servers and says so in the log", async () => {
    const lines: string[] = [];
    const path = join(dir, "missing.json");
    const core = await createCore({ configPath: path, platform: browserPlatform, log: (l) => lines.push(l) });
    expect(core.servers()).toEqual([]);
    expect(lines.join("\n")).toContain(`${path} does not exist`);
    await core.close();
  });

  it("malformed JSON is a clear error naming the file, visible in the servers view; the app still starts", async () => {
    const lines: string[] = [];
    const path = join(dir, "broken.json");
    await writeFile(path, '{ "mcpServers": { "a": { "command": "x", } }');
    const core = await createCore({ configPath: path, platform: browserPlatform, log: (l) => lines.push(l) });
    const views = core.servers();
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({ name: CONFIG_ERROR_ENTRY, state: "failed" });
    expect(views[0].error).toContain(path);
    expect(views[0].error).toMatch(/not valid JSON/);
    expect(lines.join("\n")).toContain(path);
    await core.close();
  });

  it("close() cancels pending questions and ends the server", async () => {
    const core = await createCore({ config, platform: browserPlatform });
    const events: InboxEvent[] = [];
    core.events.on("inbox:event", (e) => events.push(e));
    // The run ends one way or another (cancelled answer, or the closed connection), possibly while
    // close() is still under way: its outcome is taken from the start, never left unhandled.
    const run = core.handlers["tools:run"]({ tool: "everything_trigger-elicitation-request", args: {} }).then(
      (r) => ({ output: r.output }),
      (e: Error) => ({ error: e.message }),
    );
    await until(() => events.find((e) => e.type === "added"), 15_000);
    expect(childrenRunning(EVERYTHING).length).toBeGreaterThan(0);
    await core.close();
    expect(events.at(-1)).toMatchObject({ type: "withdrawn", reason: "closed" });
    const outcome = await run;
    if ("output" in outcome) expect(outcome.output).toMatch(/cancel/i);
    else expect(outcome.error).toBeTruthy();
    // No server child of this process survives close().
    await until(() => (childrenRunning(EVERYTHING).length === 0 ? true : undefined), 5_000);
  });
});

describe("core that connects in the background", () => {
  it("is usable at once, shows servers connecting, and tells every view when they are ready", async () => {
    const started = Date.now();
    const core = await createCore({ config, platform: browserPlatform, connectInBackground: true });
    try {
      expect(Date.now() - started).toBeLessThan(1500);
      expect(core.servers()[0]).toMatchObject({ name: "everything", state: "connecting" });
      const views: ServerView[][] = [];
      core.events.on("servers:changed", (v) => views.push(v));
      await core.ready;
      expect(core.servers()[0]).toMatchObject({ name: "everything", state: "connected" });
      // Views hear of changes coalesced, within SERVERS_EVENT_INTERVAL_MS.
      await becomesTrue(() => views.at(-1)?.[0]?.state === "connected", 2000);
      expect(views.at(-1)?.[0]).toMatchObject({ state: "connected" });
      expect(views.at(-1)?.[0].tools.length).toBeGreaterThan(0);
    } finally {
      await core.close();
    }
  });
});

describe("core keeps configured secrets out of what it shows", () => {
  it("a stdio server that prints its token as it dies shows its exit, not the token", async () => {
    const token = "ghp_stdioTokenValue0123456789";
    const opaque = "Zx9qL2vR8tY4wB6nM1kPq7";
    const lines: string[] = [];
    const script = "console.error('bad credentials: ' + process.env.API_TOKEN + ' / ' + process.env.OPAQUE); process.exit(3)";
    const core = await createCore({
      config: { mcpServers: { dying: { command: process.execPath, args: ["-e", script], env: { API_TOKEN: token, OPAQUE: opaque } } } },
      platform: browserPlatform,
      log: (l) => lines.push(l),
    });
    try {
      const [view] = core.servers();
      expect(view.state).toBe("failed");
      expect(view.error).toContain("exited with code 3");
      expect(view.error).toContain("bad credentials: [redacted] / [redacted]");
      const shown = JSON.stringify([core.servers(), await core.handlers["servers:list"](undefined), lines]);
      expect(shown).not.toContain(token);
      expect(shown).not.toContain(opaque);
    } finally {
      await core.close();
    }
  });
});
