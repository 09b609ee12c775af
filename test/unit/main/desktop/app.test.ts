import { beforeEach, describe, expect, it, vi } from "vitest";
import { INVOKE_CHANNELS, type EventChannel, type EventMap, type Settings } from "../../../../src/shared/contract";
import type { PendingEntry } from "../../../../src/shared/types";
import type { DesktopCore, DesktopPlatform } from "../../../../src/main/desktop/types";
import { FakeBrowserWindow, FakeEvent, FakeNotification, FakeTray, fake } from "./fake-electron";
import { NO_TRAY_HOST_HINT } from "../../../../src/main/desktop/tray-host";

vi.mock("electron", async () => (await import("./fake-electron")).electronModule);

const { runDesktopApp } = await import("../../../../src/main/desktop/app");
const { APP_URL, CONTENT_SECURITY_POLICY } = await import("../../../../src/main/desktop/app-url");

const SETTINGS: Settings = {
  notificationsPaused: false,
  startAtLogin: false,
  gateway: { url: "", tokenSet: true },
  keychain: { available: false, detail: "" },
  secretNames: [],
};

function fakeCore() {
  const pending: PendingEntry[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: Array<[string, unknown]> = [];
  let settings = { ...SETTINGS };
  const handlers: Record<string, (arg: unknown) => Promise<unknown>> = {};
  for (const channel of INVOKE_CHANNELS) {
    handlers[channel] = async (arg) => {
      calls.push([channel, arg]);
      return channel === "inbox:list" ? pending : settings;
    };
  }
  let releaseClose: () => void = () => {};
  const core = {
    pending: () => [...pending],
    handlers: handlers as unknown as DesktopCore["handlers"],
    events: {
      on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(listener as (payload: unknown) => void);
        return () => listeners.get(event)!.delete(listener as (payload: unknown) => void);
      },
    },
    servers: () => [{ name: "github", state: "connected" as const, toolCount: 1, tools: [] }],
    settings: () => settings,
    focus: (id: string) => emit("inbox:focus", { id }),
    close: vi.fn(
      () =>
        new Promise<void>((resolve) => {
          releaseClose = () => {
            pending.length = 0;
            resolve();
          };
        }),
    ),
  } satisfies DesktopCore;
  function emit<E extends EventChannel>(event: E, payload: EventMap[E]) {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  }
  function add(id: string, prompt: string, server = "github") {
    const entry: PendingEntry = { request: { id, kind: "input", prompt }, source: { server }, receivedAt: Date.now() };
    pending.push(entry);
    emit("inbox:event", { type: "added", entry });
  }
  return {
    core,
    calls,
    add,
    emit,
    listeners,
    releaseClose: () => releaseClose(),
    setSettings: (s: Partial<Settings>) => {
      settings = { ...settings, ...s };
      emit("settings:changed", settings);
    },
  };
}

const paths = { rendererDir: "/nonexistent/renderer", preloadPath: "/out/preload/index.cjs", assetsDir: "/out/assets" };

async function start(opts: { startHidden?: boolean; trayWillShow?: () => Promise<boolean>; log?: (line: string) => void } = {}) {
  const f = fakeCore();
  let platform: DesktopPlatform | undefined;
  await runDesktopApp({
    paths,
    log: () => {}, handleSignals: false,
    trayWillShow: async () => true,
    ...opts,
    createCore: async (p) => {
      platform = p;
      return f.core;
    },
  });
  return { ...f, platform: platform!, win: FakeBrowserWindow.created[0], tray: FakeTray.created[0] };
}

function invoke(channel: string, arg: unknown, sender: { id: number; url?: string; parent?: unknown }) {
  const listener = fake.ipcHandlers.get(channel)!;
  return listener({ sender: { id: sender.id }, senderFrame: { url: sender.url ?? APP_URL, parent: sender.parent ?? null } }, arg);
}

beforeEach(() => fake.reset());

describe("runDesktopApp", () => {
  it("a second instance leaves at once and never builds a core", async () => {
    fake.app.lock = false;
    const createCore = vi.fn();
    await runDesktopApp({ paths, log: () => {}, handleSignals: false, createCore });
    expect(fake.app.quit).toHaveBeenCalled();
    expect(createCore).not.toHaveBeenCalled();
    expect(FakeBrowserWindow.created).toHaveLength(0);
    expect(FakeTray.created).toHaveLength(0);
  });

  it("the first instance shows its window when another launch happens", async () => {
    const t = await start({ startHidden: true });
    expect(FakeBrowserWindow.created).toHaveLength(0);
    fake.app.emit("second-instance", new FakeEvent(), ["companion"], "/");
    const win = FakeBrowserWindow.created[0];
    win.webContents.finishLoad(win);
    expect(win.visible).toBe(true);
    expect(t.tray).toBeDefined();
  });

  it("opens the window at a login launch when no tray can be seen, and says what to install", async () => {
    const lines: string[] = [];
    const t = await start({ startHidden: true, trayWillShow: async () => false, log: (line) => lines.push(line) });
    expect(t.win).toBeDefined();
    t.win.webContents.finishLoad(t.win);
    expect(t.win.visible).toBe(true);
    expect(lines).toContain(NO_TRAY_HOST_HINT);
  });

  it("registers the privileged page scheme, serves it with the CSP, and adds the CSP to every response", async () => {
    await start();
    expect(fake.privilegedSchemes).toEqual([expect.objectContaining({ scheme: "companion", privileges: expect.objectContaining({ standard: true, secure: true }) })]);
    const response = await fake.session.protocolHandlers.get("companion")!(new Request("companion://app/index.html"));
    expect(response.status).toBe(404); // nothing built at /nonexistent, and still no crash
    expect(response.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    const callback = vi.fn();
    fake.session.headersListener!({ responseHeaders: { "content-type": ["text/html"] } }, callback);
    expect(callback).toHaveBeenCalledWith({ responseHeaders: { "content-type": ["text/html"], "Content-Security-Policy": [CONTENT_SECURITY_POLICY] } });
  });

  it("serves every contract channel to our page only", async () => {
    const t = await start();
    expect([...fake.ipcHandlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
    const ours = t.win.webContents.id;
    expect(await invoke("inbox:list", undefined, { id: ours })).toEqual({ ok: true, value: [] });
    expect(await invoke("url:open", { id: "x" }, { id: ours + 100 })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(await invoke("url:open", { id: "x" }, { id: ours, url: "https://evil.example/" })).toMatchObject({ ok: false });
    expect(t.calls.map(([c]) => c)).toEqual(["inbox:list"]);
  });

  it("a new question updates the tray and notifies; clicking opens the window on that question", async () => {
    const t = await start();
    t.win.webContents.finishLoad(t.win);
    t.win.close(); // closed to the tray
    expect(t.win.visible).toBe(false);
    t.add("elc-1", "Deploy to production?");
    expect(t.tray.tooltip).toBe("Toolnexus Companion — 1 question waiting");
    expect(t.tray.image).toBe("/out/assets/tray-light-attention.png");
    expect(fake.app.badge).toBe(1);
    expect(FakeNotification.shown.map((n) => n.options)).toEqual([{ title: "github asks", body: "Deploy to production?" }]);
    // The page heard about the question too (it was loaded, only hidden).
    expect(t.win.webContents.sent.map(([c]) => c)).toContain("inbox:event");
    FakeNotification.shown[0].emit("click");
    expect(t.win.visible).toBe(true);
    expect(t.win.webContents.sent.at(-1)).toEqual(["inbox:focus", { id: "elc-1" }]);
  });

  it("paused notifications stay silent while the tray still counts", async () => {
    const t = await start();
    t.setSettings({ notificationsPaused: true });
    t.add("elc-1", "q");
    expect(FakeNotification.shown).toHaveLength(0);
    expect(t.tray.tooltip).toBe("Toolnexus Companion — 1 question waiting (notifications paused)");
  });

  it("the tray menu's pause and start-at-login go through the core's handlers", async () => {
    const t = await start();
    const template = (t.tray.menu as { template: Array<{ id?: string; click?: (i: unknown) => void; submenu?: unknown }> }).template;
    const pause = template.find((i) => i.id === "pause")!.submenu as Array<{ id: string; click: () => void }>;
    pause.find((i) => i.id === "pause:hour")!.click();
    template.find((i) => i.id === "start-at-login")!.click!({ checked: true });
    await new Promise((r) => setImmediate(r));
    expect(t.calls).toEqual([
      ["settings:pauseNotifications", { minutes: 60 }],
      ["settings:startAtLogin", { enabled: true }],
    ]);
  });

  it("the platform opens only http(s) urls in the system browser", async () => {
    const t = await start();
    await t.platform.openExternal("https://github.com/login/device");
    await expect(t.platform.openExternal("file:///etc/passwd")!).rejects.toThrow(/http/);
    expect(fake.opened).toEqual(["https://github.com/login/device"]);
  });

  it("closing the window answers nothing and keeps the app running", async () => {
    const t = await start();
    t.win.webContents.finishLoad(t.win);
    t.win.close();
    expect(t.core.close).not.toHaveBeenCalled();
    expect(fake.app.exit).not.toHaveBeenCalled();
    expect(fake.app.listenerCount("window-all-closed")).toBe(1);
  });

  it("Quit closes the core (cancelling everything) before the process exits", async () => {
    const t = await start();
    t.win.webContents.finishLoad(t.win);
    const template = (t.tray.menu as { template: Array<{ id?: string; click?: () => void }> }).template;
    template.find((i) => i.id === "quit")!.click!();
    expect(fake.app.quit).toHaveBeenCalled();
    expect(t.core.close).toHaveBeenCalledTimes(1);
    expect(fake.app.exit).not.toHaveBeenCalled();
    expect(t.tray.destroyed).toBe(true);
    expect(fake.ipcHandlers.size).toBe(0);
    // A second Quit while closing does not close twice.
    fake.app.quit();
    expect(t.core.close).toHaveBeenCalledTimes(1);
    t.releaseClose();
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(0));
    // The window may now really close.
    t.win.close();
    expect(t.win.destroyed).toBe(true);
  });

  it("exits anyway when the core hangs on close", async () => {
    const f = fakeCore();
    await runDesktopApp({ paths, log: () => {}, handleSignals: false, closeTimeoutMs: 20, createCore: async () => f.core });
    fake.app.quit();
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(0));
  });
});
