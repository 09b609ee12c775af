// A rule's quiet note offers to undo the rule: an "Undo rule" button where the system shows
// notification buttons (macOS, Windows), which removes the rule through rules:remove; on Linux no
// button, the note says where to undo it and a click opens the window (whose own note has Undo).
// The service with a recording factory, and the desktop app wired to it with electron mocked.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PendingEntry } from "../../../../src/shared/types";
import { NotificationService, UNDO_RULE, type NotificationContent } from "../../../../src/main/desktop/notifications";
import { FakeBrowserWindow, FakeNotification, fake } from "./fake-electron";
import { quietCore } from "./fake-core";

vi.mock("electron", async () => (await import("./fake-electron")).electronModule);
const { runDesktopApp } = await import("../../../../src/main/desktop/app");
const { notificationActionsSupported } = await import("../../../../src/main/desktop/system-notification");

function entry(id: string, prompt: string): PendingEntry {
  return { request: { id, kind: "input", prompt }, source: { server: "github", agent: "claude-code" }, receivedAt: Date.now() };
}

type Shown = NotificationContent & { click(): void; action(index: number): void; closed: boolean };

function setup(actionsSupported: boolean) {
  const shown: Shown[] = [];
  const undoRule = vi.fn();
  const openWindow = vi.fn();
  const service = new NotificationService({
    create: (content) => {
      let onClick = () => {};
      let onAction: (index: number) => void = () => {};
      const n: Shown = { ...content, click: () => onClick(), action: (i) => onAction(i), closed: false };
      return { on: (_e, l) => void (onClick = l), onAction: (l) => void (onAction = l), show: () => void shown.push(n), close: () => void (n.closed = true) };
    },
    isPaused: () => false,
    openQuestion: vi.fn(),
    openWindow,
    undoRule,
    actionsSupported,
  });
  return { service, shown, undoRule, openWindow };
}

describe("NotificationService: Undo rule on a rule's note", () => {
  it("offers Undo rule where buttons show; pressing it removes that rule and closes the note; a click still opens the window", () => {
    const t = setup(true);
    t.service.added(entry("elc-1", "Which branch?"), "rule-1");
    t.service.ruleAnswered("elc-1", "rule-1");
    expect(t.shown).toEqual([expect.objectContaining({ title: "Answered by your rule", body: "github (via claude-code): Which branch?", silent: true, actions: [UNDO_RULE] })]);
    expect(UNDO_RULE).toBe("Undo rule");
    t.shown[0].click();
    expect(t.openWindow).toHaveBeenCalledTimes(1);
    expect(t.undoRule).not.toHaveBeenCalled();
    t.shown[0].action(1);
    expect(t.undoRule).not.toHaveBeenCalled();
    t.shown[0].action(0);
    expect(t.undoRule).toHaveBeenCalledWith("rule-1");
    expect(t.shown[0].closed).toBe(true);
  });

  it("without buttons (Linux) the note has no action and says where to undo the rule", () => {
    const t = setup(false);
    t.service.added(entry("elc-1", "Which branch?"), "rule-1");
    t.service.ruleAnswered("elc-1", "rule-1");
    expect(t.shown[0].actions).toBeUndefined();
    expect(t.shown[0].body).toBe("github (via claude-code): Which branch? Open the Companion to undo the rule (Settings, Rules).");
    t.shown[0].click();
    expect(t.openWindow).toHaveBeenCalled();
  });

  it("a rule's newer note replaces its older one; clear() closes what is left", () => {
    vi.useFakeTimers();
    try {
      const t = setup(true);
      t.service.added(entry("a", "Which branch?"), "rule-1");
      t.service.ruleAnswered("a", "rule-1");
      vi.advanceTimersByTime(6_000);
      t.service.added(entry("b", "Which branch?"), "rule-1");
      t.service.ruleAnswered("b", "rule-1");
      expect(t.shown.map((n) => n.closed)).toEqual([true, false]);
      t.service.clear();
      expect(t.shown[1].closed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("knows which platforms show buttons", () => {
    expect(notificationActionsSupported("darwin")).toBe(true);
    expect(notificationActionsSupported("win32")).toBe(true);
    expect(notificationActionsSupported("linux")).toBe(false);
  });
});

/** The quiet core, recording what the app asks rules:remove. */
function fakeCore() {
  const { core, emit, handlers } = quietCore();
  const removed: unknown[] = [];
  handlers["rules:remove"] = async (arg) => {
    removed.push(arg);
    return { removed: true };
  };
  return { core, emit, removed };
}

async function startWith(platform: NodeJS.Platform) {
  Object.defineProperty(process, "platform", { value: platform, configurable: true });
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
  f.emit("inbox:event", { type: "added", entry: entry("elc-1", "Which branch?"), byRule: "rule-7" });
  f.emit("inbox:event", { type: "answered", id: "elc-1", answer: { id: "elc-1", ok: true }, by: "rule", ruleId: "rule-7" });
  return { f, win };
}

describe("desktop app: Undo rule from the system notification", () => {
  const realPlatform = process.platform;
  beforeEach(() => fake.reset());
  afterEach(() => Object.defineProperty(process, "platform", { value: realPlatform, configurable: true }));

  it("on macOS the note carries an Undo rule button that removes the rule through rules:remove", async () => {
    const { f } = await startWith("darwin");
    expect(FakeNotification.shown).toHaveLength(1);
    const note = FakeNotification.shown[0];
    expect(note.options).toEqual({ title: "Answered by your rule", body: "github (via claude-code): Which branch?", silent: true, actions: [{ type: "button", text: "Undo rule" }] });
    // Electron ≥ 3x: the details object first, the deprecated index second.
    note.emit("action", { actionIndex: 0 }, 0);
    await vi.waitFor(() => expect(f.removed).toEqual([{ id: "rule-7" }]));
  });

  it("on Linux there is no button: the note says where to undo, and a click opens the window", async () => {
    const { f, win } = await startWith("linux");
    const note = FakeNotification.shown[0];
    expect(note.options).toEqual({ title: "Answered by your rule", body: "github (via claude-code): Which branch? Open the Companion to undo the rule (Settings, Rules).", silent: true });
    note.emit("click");
    expect(win.visible).toBe(true);
    expect(f.removed).toEqual([]);
  });
});
