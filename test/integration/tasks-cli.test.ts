// `toolnexus-companion tasks` as a person runs it: the real launcher in a child process. `list`
// over a history file the tasks store wrote; `cancel` against a real core and its loopback
// listener in this process (the page's socket, the proof, the token), and with none running.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HistoryStore } from "../../src/main/history/store";
import { TasksStore } from "../../src/main/history/tasks-store";
import { createCore, type Core } from "../../src/main/app/core";
import { startCompanionServer, type CompanionServer } from "../../src/main/app/companion-server";
import { browserPlatform } from "../../src/main/app/serve";
import type { TaskRecord } from "../../src/shared/tasks";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "bin", "toolnexus-companion");
let dir: string;
let file: string;
const now = Date.now();

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, "tasks", ...args], { cwd: root, env: { ...process.env, TOOLNEXUS_COMPANION_URL: "", TOOLNEXUS_COMPANION_TOKEN: "", ...env } });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

const record = (over: Partial<TaskRecord>): TaskRecord => ({ id: "tsk-a", server: "builder", tool: "build_site", taskId: "srv-a", generation: "2026-07-28", state: "working", createdAt: now - 90_000, ...over });

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "tasks-cli-"));
  file = path.join(dir, "history.sqlite");
  const history = new HistoryStore({ path: file });
  const tasks = new TasksStore(history);
  tasks.started(record({ agent: "cursor", statusMessage: "Rendering\npages", progress: { progress: 3, total: 12 } }));
  tasks.started(record({ id: "tsk-b", tool: "reindex", server: "search", taskId: "srv-b", createdAt: now - 600_000 }));
  tasks.updated("tsk-b", { state: "failed", endedAt: now - 300_000, outcome: "Out of disk" });
  await tasks.flush();
  tasks.close();
  history.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("toolnexus-companion tasks list", () => {
  it("prints running tasks first, then the recently ended, one line each", async () => {
    const { code, out } = await cli(["list", "--db", file]);
    expect(code).toBe(0);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+STATE\s+TOOL\s+SERVER\s+STARTED BY\s+TIME\s+STATUS$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^tsk-a\s+working\s+build_site\s+builder\s+cursor\s+1 min\s+25% Rendering pages$/);
    expect(lines[2]).toMatch(/^tsk-b\s+failed\s+reindex\s+search\s+you\s+took 5 min\s+Out of disk$/);
  });

  it("prints JSON lines with --json; says so when there is no file; refuses what it does not know", async () => {
    const json = await cli(["list", "--json", "--db", file]);
    expect(json.out.trim().split("\n").map((l) => JSON.parse(l))).toMatchObject([
      { id: "tsk-a", state: "working", progress: { progress: 3, total: 12 } },
      { id: "tsk-b", state: "failed", outcome: "Out of disk" },
    ]);
    const none = await cli(["list", "--db", path.join(dir, "missing.sqlite")]);
    expect(none).toMatchObject({ code: 0, out: "" });
    expect(none.err).toMatch(/No tasks yet/);
    expect(await cli(["stop", "tsk-a"])).toMatchObject({ code: 2, err: expect.stringMatching(/"stop tsk-a" is not a tasks command/) });
    expect(await cli(["cancel"])).toMatchObject({ code: 2, err: expect.stringMatching(/takes one task id/) });
  });
});

describe("toolnexus-companion tasks cancel", () => {
  let core: Core;
  let server: CompanionServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    core = await createCore({ config: { mcpServers: {} }, platform: browserPlatform, historyPath: path.join(dir, "app.sqlite") });
    server = await startCompanionServer(core, { port: 0, staticDir: dir });
    env = { TOOLNEXUS_COMPANION_URL: server.url, TOOLNEXUS_COMPANION_TOKEN: core.token() };
    core.internals.tasks.started(record({ id: "tsk-live", agent: "cursor" }));
  });
  afterAll(async () => {
    await core?.close();
  });

  it("reaches the running companion: an unknown id, and a task whose server is not connected, are said in words", async () => {
    const unknown = await cli(["cancel", "tsk-nope"], env);
    expect(unknown).toMatchObject({ code: 1, out: "" });
    expect(unknown.err).toMatch(/No task tsk-nope is followed by this companion/);
    const unsupported = await cli(["cancel", "tsk-live"], env);
    expect(unsupported.code).toBe(1);
    expect(unsupported.err).toMatch(/Could not cancel .* the task's server ".*" is not connected/);
    expect(core.internals.tasks.get("tsk-live")?.state).toBe("working");
  }, 30_000);

  it("a token that is not the companion's sends nothing but the challenge, and says so", async () => {
    const wrong = await cli(["cancel", "tsk-live"], { ...env, TOOLNEXUS_COMPANION_TOKEN: "not-the-token" });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/could not prove it is the companion[\s\S]*only the running companion can cancel a task/);
  }, 30_000);

  it("with no companion running, says so in one line", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const down = await cli(["cancel", "tsk-live"], { TOOLNEXUS_COMPANION_URL: `http://127.0.0.1:${port}`, TOOLNEXUS_COMPANION_TOKEN: "x" });
    expect(down).toMatchObject({ code: 1, out: "" });
    expect(down.err).toMatch(/^toolnexus-companion tasks: the companion is not running at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)\. Start Toolnexus Companion and try again; only the running companion can cancel a task\.\n$/);
  }, 30_000);
});
