// The Tasks view in Chromium, browser mode, the real core and listener on a real History file:
// tasks seeded through the core's ledger (the tasks store the MCP source is given) reach the open
// page by tasks:changed, with progress, who started them and a confirmed Cancel; they outlive the
// companion (a second app on the same file lists them). Screenshots of the empty, running, ended and
// confirming views at 1280×800 and 420×640, light and dark, land in test-output/screenshots.
import { describe, it, expect } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { TaskRecord } from "../../src/shared/tasks";
import { shootAll, startApp, useBrowser, type App } from "./harness";

const UI_TIMEOUT = 15_000;
let dir: string;
const apps: App[] = [];

const e2e = useBrowser({
  uiTimeout: UI_TIMEOUT,
  afterEach: async () => {
    while (apps.length) await apps.pop()!.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
});

const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("button", { name, exact: true });

function task(over: Partial<TaskRecord> & { id: string }): TaskRecord {
  return { server: "site-builder", tool: "build_site", taskId: `srv-${over.id}`, generation: "2026-07-28", state: "working", createdAt: Date.now() - 95_000, ...over };
}

describe("the Tasks view", () => {
  it("lists what runs in the background as it changes, asks before cancelling, and keeps the tasks across a restart", async () => {
    dir = mkdtempSync(join(tmpdir(), "tnc-tasks-view-"));
    const historyPath = join(dir, "history.sqlite");
    const app = await startApp({ mcpServers: {} }, { core: { historyPath } });
    apps.push(app);
    const page = await e2e.open({ url: app.pageUrl });

    await nav(page, "Tasks").click();
    await page.getByText(/No tasks right now\. When a server runs a tool call in the background/).waitFor();
    await shootAll(page, "tasks-empty");

    const ledger = app.core.internals.tasks;
    ledger.started(task({ id: "tsk-build", agent: "cursor", statusMessage: "Rendering the docs site", progress: { progress: 3, total: 12, message: "page 3 of 12" } }));
    ledger.started(task({ id: "tsk-ask", tool: "deploy", server: "release-pipeline-with-a-long-name", agent: "claude-code", state: "input_required", statusMessage: "Waiting for the person to pick a branch", createdAt: Date.now() - 4 * 60_000 }));
    ledger.started(task({ id: "tsk-index", tool: "reindex_search", server: "search", createdAt: Date.now() - 12_000, progress: { progress: 840 } }));
    ledger.started(task({ id: "tsk-done", tool: "export_report", server: "reports", agent: "cursor", createdAt: Date.now() - 30 * 60_000 }));
    ledger.updated("tsk-done", { state: "completed", outcome: "Wrote report-2026-12.pdf (48 pages)" });
    ledger.started(task({ id: "tsk-fail", tool: "resize_images", server: "media", createdAt: Date.now() - 20 * 60_000 }));
    ledger.updated("tsk-fail", { state: "failed", outcome: "Out of disk space on /var/media" });

    const running = page.getByRole("list", { name: "Running tasks" });
    const build = running.getByRole("article", { name: "build_site" });
    await build.getByText("Rendering the docs site").waitFor();
    await build.getByText("Started by cursor").waitFor();
    await running.getByRole("article", { name: "reindex_search" }).getByText("Started by you").waitFor();
    const bar = build.getByRole("progressbar", { name: "Progress of build_site" });
    expect(await bar.evaluate((el) => (el as HTMLProgressElement).value)).toBeCloseTo(0.25);
    ledger.updated("tsk-build", { progress: { progress: 9, total: 12, message: "page 9 of 12" } });
    await build.getByText("75%").waitFor();
    const ended = page.getByRole("list", { name: "Ended tasks" });
    await ended.getByRole("article", { name: "export_report" }).getByText("Completed").waitFor();
    await ended.getByRole("article", { name: "resize_images" }).getByText("Out of disk space on /var/media").waitFor();
    await shootAll(page, "tasks-running");
    await shootAll(page, "tasks-ended", { show: "ul[aria-label='Ended tasks']" });

    await build.getByRole("button", { name: "Cancel task" }).click();
    const confirm = build.getByRole("group", { name: "Cancel build_site?" });
    await confirm.waitFor();
    await shootAll(page, "tasks-confirm", { show: "[role=group]" });
    await confirm.getByRole("button", { name: "Keep it running" }).click();
    expect(await build.getByRole("group").count()).toBe(0);
    // Its server is not connected here (the task was seeded): main says so, and the task runs on.
    await build.getByRole("button", { name: "Cancel task" }).click();
    await build.getByRole("button", { name: "Yes, cancel it" }).click();
    await build.getByRole("alert").getByText(/is not connected/).waitFor();
    expect(ledger.get("tsk-build")?.state).toBe("working");

    await running.getByRole("article", { name: "deploy" }).getByRole("button", { name: "Answer in the Inbox" }).click();
    await expect.poll(() => nav(page, "Inbox").getAttribute("aria-current")).toBe("page");
    expect(e2e.errors(page)).toEqual([]);

    // The companion stops; the next one on the same file lists the same tasks. Their servers stay
    // in its config (disabled: not started here), or it would mark their tasks gone at start.
    await page.context().close();
    apps.pop();
    await app.close();
    const kept = { command: "node", args: ["-e", ""], disabled: true };
    const second = await startApp({ mcpServers: { "site-builder": kept, "release-pipeline-with-a-long-name": kept, search: kept } }, { core: { historyPath } });
    apps.push(second);
    const again = await e2e.open({ url: second.pageUrl });
    await nav(again, "Tasks").click();
    await again.getByRole("list", { name: "Running tasks" }).getByRole("article", { name: "build_site" }).getByText("75%").waitFor();
    expect(await again.getByRole("list", { name: "Running tasks" }).getByRole("article").count()).toBe(3);
    await again.getByRole("list", { name: "Ended tasks" }).getByRole("article", { name: "export_report" }).waitFor();

    // And History lists the ended ones, in its own words.
    await nav(again, "History").click();
    const records = again.getByRole("list", { name: "History records" });
    await records.getByRole("article", { name: "Ran export_report as a background task" }).getByText("Completed", { exact: true }).waitFor();
    await records.getByRole("article", { name: "Ran resize_images as a background task" }).getByText("Failed", { exact: true }).waitFor();
  }, 180_000);
});
