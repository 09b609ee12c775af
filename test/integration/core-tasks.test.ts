// The core's tasks wiring without a History file: the ledger the source is given keeps tasks in
// memory, tasks:list serves them and tasks:changed tells the pages, throttled and scrubbed of
// every secret the core knows, like every event.
import { afterEach, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../src/main/app/core";
import { browserPlatform } from "../../src/main/app/serve";
import { SecretScrubber } from "../../src/main/secrets";
import type { TasksList } from "../../src/shared/tasks";
import { until } from "../helpers/poll";

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
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
    await expect(core.handlers["tasks:cancel"]({ id: "tsk-1" })).rejects.toThrow(/cannot cancel tasks yet/);
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
