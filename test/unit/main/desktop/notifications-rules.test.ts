// A question a rule the person set answers at once: no system notification for the question, one
// quiet (silent) note per rule that says where to undo it. The service under fake timers, and the
// desktop app wired to it with electron mocked.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PendingEntry } from "../../../../src/shared/types";
import { NotificationService, type NotificationContent } from "../../../../src/main/desktop/notifications";
import { FakeBrowserWindow, FakeNotification, fake } from "./fake-electron";
import { quietCore } from "./fake-core";

vi.mock("electron", async () => (await import("./fake-electron")).electronModule);
const { runDesktopApp } = await import("../../../../src/main/desktop/app");

function entry(id: string, prompt: string, server = "github"): PendingEntry {
  return { request: { id, kind: "input", prompt }, source: { server, agent: "claude-code" }, receivedAt: Date.now() };
}

function setup(paused = false) {
  const shown: Array<NotificationContent & { click(): void }> = [];
  const openWindow = vi.fn();
  const openQuestion = vi.fn();
  let isPaused = paused;
  const service = new NotificationService({
    create: (content) => {
      let onClick = () => {};
      const n = { ...content, click: () => onClick() };
      return { on: (_e, l) => void (onClick = l), show: () => void shown.push(n), close: () => {} };
    },
    isPaused: () => isPaused,
    openQuestion,
    openWindow,
  });
  return { service, shown, openWindow, openQuestion, pause: (p: boolean) => (isPaused = p) };
}

describe("NotificationService: rules", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-01-01T10:00:00Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("a question added with byRule is not notified; its rule's answer is one silent note that opens the window", () => {
    const t = setup();
    t.service.added(entry("elc-1", "Which branch?"), "rule-1");
    expect(t.shown).toHaveLength(0);
    t.service.ruleAnswered("elc-1", "rule-1");
    expect(t.shown).toEqual([
      expect.objectContaining({ title: "Answered by your rule", body: "github (via claude-code): Which branch? Open the Companion to undo the rule (Settings, Rules).", silent: true }),
    ]);
    t.shown[0].click();
    expect(t.openWindow).toHaveBeenCalled();
    expect(t.openQuestion).not.toHaveBeenCalled();
  });

  it("a rule answering a loop makes one note per window; another rule has its own; byRule questions do not count toward a flood", () => {
    const t = setup();
    for (let i = 0; i < 5; i++) {
      t.service.added(entry(`r${i}`, "Which branch?"), "rule-1");
      t.service.ruleAnswered(`r${i}`, "rule-1");
    }
    t.service.added(entry("s1", "Other?"), "rule-2");
    t.service.ruleAnswered("s1", "rule-2");
    expect(t.shown.map((n) => n.title)).toEqual(["Answered by your rule", "Answered by your rule"]);
    // The person's next question from the same server is shown one by one, not summarised.
    t.service.added(entry("q1", "Deploy?"));
    expect(t.shown.at(-1)).toMatchObject({ title: "github (via claude-code) asks", body: "Deploy?" });
    expect(t.shown.at(-1)?.silent).toBeUndefined();
    vi.advanceTimersByTime(5_000);
    t.service.added(entry("r9", "Which branch?"), "rule-1");
    t.service.ruleAnswered("r9", "rule-1");
    expect(t.shown).toHaveLength(4);
  });

  it("stays silent while paused", () => {
    const t = setup(true);
    t.service.added(entry("elc-1", "Which branch?"), "rule-1");
    t.service.ruleAnswered("elc-1", "rule-1");
    expect(t.shown).toHaveLength(0);
  });
});

const fakeCore = quietCore;

describe("desktop app: a rule's answer", () => {
  beforeEach(() => fake.reset());

  it("no notification for a question a rule answers at once; one silent note for the rule's answer; clicking shows the window", async () => {
    const f = fakeCore();
    await runDesktopApp({
      paths: { rendererDir: "/nonexistent/renderer", preloadPath: "/out/preload/index.cjs", assetsDir: "/out/assets" },
      log: () => {},
      handleSignals: false,
      createCore: async () => f.core,
    });
    const win = FakeBrowserWindow.created[0];
    win.webContents.finishLoad(win);
    win.close();
    const q = entry("elc-1", "Which branch?");
    f.emit("inbox:event", { type: "added", entry: q, byRule: "rule-1" });
    expect(FakeNotification.shown).toHaveLength(0);
    f.emit("inbox:event", { type: "answered", id: "elc-1", answer: { id: "elc-1", ok: true, data: { branch: "main" } }, by: "rule", ruleId: "rule-1" });
    expect(FakeNotification.shown.map((n) => n.options)).toEqual([
      { title: "Answered by your rule", body: "github (via claude-code): Which branch? Open the Companion to undo the rule (Settings, Rules).", silent: true },
    ]);
    // The page heard both events, so its own note with Undo shows when the window opens.
    expect(win.webContents.sent.filter(([c]) => c === "inbox:event")).toHaveLength(2);
    FakeNotification.shown[0].emit("click");
    expect(win.visible).toBe(true);
    // A person's answer is not a rule's: no note.
    f.emit("inbox:event", { type: "added", entry: entry("elc-2", "Deploy?") });
    f.emit("inbox:event", { type: "answered", id: "elc-2", answer: { id: "elc-2", ok: true } });
    expect(FakeNotification.shown.map((n) => n.options.title)).toEqual(["Answered by your rule", "github (via claude-code) asks"]);
  });
});
