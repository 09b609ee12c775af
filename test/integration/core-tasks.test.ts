// The core's tasks wiring without a History file: the ledger the source is given keeps tasks in
// memory, tasks:list serves them and tasks:changed tells the pages, throttled and scrubbed of
// every secret the core knows, like every event. With one, the Tasks view's Cancel (tasks:cancel)
// on a real 2026-07-28 task of the tasks fixture: the server is told, and the ledger and History
// say cancelled, by the person.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../src/main/app/core";
import { browserPlatform } from "../../src/main/app/serve";
import { SecretScrubber } from "../../src/main/secrets";
import type { TasksList } from "../../src/shared/tasks";
import { until } from "../helpers/poll";
import { startTasksServer2026 } from "../fixtures/tasks-server-2026-run";

let core: Core | undefined;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await core?.close();
  core = undefined;
  for (const stop of stops.splice(0)) await stop();
});

describe("the core's tasks", () => {
  it("keeps them in memory without History, lists them, and sends tasks:changed scrubbed and at most every 100 ms", async () => {
    const scrubber = new SecretScrubber();
    scrubber.register("sk-live-0123456789abcdef");
    core = await createCore({ config: { mcpServers: {} }, platform: browserPlatform, scrubber });
    const events: TasksList[] = [];
    core.events.on("tasks:changed", (list) => events.push(list));
    const ledger = core.internals.tasks;
    ledger.started({ id: "tsk-1", server: "builder", tool: "build_site", taskId: "s-1", generation: "2025-11-25", state: "working", createdAt: Date.now(), statusMessage: "using key sk-live-0123456789abcdef" });
    for (let i = 1; i <= 20; i++) ledger.updated("tsk-1", { progress: { progress: i, total: 20 } });
    const last = await until(() => events.find((e) => e.tasks[0]?.progress?.progress === 20), 5000, "the last progress to be sent");
    expect(events.length).toBeLessThanOrEqual(3);
    expect(JSON.stringify(last)).not.toContain("sk-live-0123456789abcdef");
    const listed = await core.handlers["tasks:list"](undefined);
    expect(listed.tasks).toMatchObject([{ id: "tsk-1", state: "working", progress: { progress: 20, total: 20 } }]);
    expect(JSON.stringify(listed)).not.toContain("sk-live-0123456789abcdef");
    // Its server is not in the config: the source says why it cannot cancel it.
    await expect(core.handlers["tasks:cancel"]({ id: "tsk-1" })).rejects.toThrow('Could not cancel build_site on builder: the task\'s server "builder" is not connected');
  });

  it("without History, a long session keeps only the 50 most recently ended tasks besides the live ones", async () => {
    core = await createCore({ config: { mcpServers: {} }, platform: browserPlatform });
    const ledger = core.internals.tasks;
    for (let i = 0; i < 80; i++) {
      ledger.started({ id: `tsk-${i}`, server: "s", tool: "t", taskId: `x-${i}`, generation: "2025-11-25", state: "working", createdAt: i });
      if (i > 0) ledger.updated(`tsk-${i}`, { state: "completed", endedAt: 1000 + i });
    }
    const { tasks } = await core.handlers["tasks:list"](undefined);
    expect(tasks).toHaveLength(51);
    expect(tasks[0]).toMatchObject({ id: "tsk-0", state: "working" });
    expect(ledger.get("tsk-1")).toBeUndefined();
    expect(ledger.get("tsk-79")).toMatchObject({ state: "completed" });
  });
});

describe("the Tasks view's Cancel on a real task", () => {
  it("tasks:cancel tells the server (tasks/cancel), the call fails saying so, and the ledger and History say cancelled by you", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tnc-core-tasks-"));
    const server = await startTasksServer2026();
    stops.push(() => server.close());
    core = await createCore({ config: { mcpServers: { jobs: { url: server.url } } }, platform: browserPlatform, historyPath: join(dir, "app.sqlite") });
    const { source, tasks } = core.internals;
    const longJob = source.tools.find((t) => t.server === "jobs" && t.tool === "long_job");
    expect(longJob, JSON.stringify(source.servers())).toBeDefined();
    const call = longJob!.execute({}, { agent: "builder-bot" });
    call.catch(() => undefined);
    const listedLive = await until(async () => (await core!.handlers["tasks:list"](undefined)).tasks.find((t) => t.tool === "long_job"), 10_000, "the task in tasks:list");
    expect(listedLive).toMatchObject({ server: "jobs", agent: "builder-bot", generation: "2026-07-28", state: "working" });
    const after = await core.handlers["tasks:cancel"]({ id: listedLive.id });
    expect(after.tasks.find((t) => t.id === listedLive.id)).toMatchObject({ state: "cancelled", outcome: "cancelled by you" });
    await expect(call).rejects.toThrow("jobs: long_job was cancelled (cancelled by you)");
    expect(await server.seen()).toContainEqual({ method: "tasks/cancel", mcpName: listedLive.taskId, taskId: listedLive.taskId });
    expect(tasks.get(listedLive.id)).toMatchObject({ state: "cancelled" });
    const history = await until(async () => (await core!.handlers["history:list"]({})).items.find((r) => r.requestId === listedLive.id), 5_000, "the task's History row");
    expect(history).toMatchObject({ kind: "task", outcome: "cancelled", by: "person", server: "jobs", agent: "builder-bot" });
    // Ended: a second Cancel is refused in words.
    await expect(core.handlers["tasks:cancel"]({ id: listedLive.id })).rejects.toThrow("has already ended: cancelled");
  }, 30_000);
});
