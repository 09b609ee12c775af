import { beforeEach, describe, expect, it, vi } from "vitest";
import { FakeBrowserWindow, FakeEvent, FakeSession, FakeWebContents, fake } from "./fake-electron";

vi.mock("electron", async () => (await import("./fake-electron")).electronModule);

const { createHardenedWindow, MainWindow, hardenSession, hardenWebContents } = await import("../../../../src/main/desktop/window");
const { APP_URL } = await import("../../../../src/main/desktop/app-url");

beforeEach(() => fake.reset());

describe("createHardenedWindow", () => {
  it("builds the window from the hardened options", () => {
    const win = createHardenedWindow({ preloadPath: "/out/preload/index.cjs" }) as unknown as FakeBrowserWindow;
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, preload: "/out/preload/index.cjs" });
  });

  it("denies window.open, foreign navigation and redirects, and webviews", () => {
    const contents = new FakeWebContents();
    hardenWebContents(contents as never);
    expect(contents.windowOpenHandler!({ url: "https://example.com" })).toEqual({ action: "deny" });
    expect(contents.windowOpenHandler!({ url: APP_URL })).toEqual({ action: "deny" });

    for (const name of ["will-navigate", "will-redirect"]) {
      const foreign = new FakeEvent("https://evil.example/");
      contents.emit(name, foreign);
      expect(foreign.defaultPrevented).toBe(true);
      const same = new FakeEvent(`${APP_URL}#q1`);
      contents.emit(name, same);
      expect(same.defaultPrevented).toBe(false);
    }
    const webview = new FakeEvent();
    contents.emit("will-attach-webview", webview);
    expect(webview.defaultPrevented).toBe(true);
  });

  it("denies every permission request and check", () => {
    const session = new FakeSession();
    hardenSession(session as never);
    for (const permission of ["notifications", "media", "clipboard-read", "geolocation", "openExternal"]) {
      const callback = vi.fn();
      session.permissionRequest!(null, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(session.permissionCheck!(null, permission)).toBe(false);
    }
    expect(session.devicePermission!({})).toBe(false);
  });
});

describe("MainWindow", () => {
  function open() {
    const main = new MainWindow({ preloadPath: "/p.cjs" });
    main.show();
    const win = FakeBrowserWindow.created.at(-1)!;
    return { main, win };
  }

  it("loads our page and shows it once painted", () => {
    const { win } = open();
    expect(win.webContents.loaded).toEqual([APP_URL]);
    expect(win.visible).toBe(false);
    win.webContents.finishLoad(win);
    expect(win.visible).toBe(true);
  });

  it("closing hides the window and answers nothing; after allowClose it really closes", () => {
    const { main, win } = open();
    win.webContents.finishLoad(win);
    win.close();
    expect(win.destroyed).toBe(false);
    expect(win.visible).toBe(false);
    expect(win.webContents.sent).toEqual([]);
    main.show();
    expect(win.visible).toBe(true);
    expect(FakeBrowserWindow.created).toHaveLength(1);
    main.allowClose();
    win.close();
    expect(win.destroyed).toBe(true);
    expect(main.webContentsId()).toBeUndefined();
  });

  it("holds the latest focus request until the page has loaded, drops other events before it", () => {
    const { main, win } = open();
    main.send("servers:changed", []);
    main.send("inbox:focus", { id: "a" });
    main.send("inbox:focus", { id: "b" });
    expect(win.webContents.sent).toEqual([]);
    win.webContents.finishLoad(win);
    expect(win.webContents.sent).toEqual([["inbox:focus", { id: "b" }]]);
    main.send("settings:changed", { x: 1 } as never);
    expect(win.webContents.sent.at(-1)).toEqual(["settings:changed", { x: 1 }]);
  });

  it("reports its WebContents id for the sender check", () => {
    const { main, win } = open();
    expect(main.webContentsId()).toBe(win.webContents.id);
  });

  it("reloads a crashed renderer", () => {
    const { win } = open();
    win.webContents.finishLoad(win);
    win.webContents.emit("render-process-gone", new FakeEvent(), { reason: "crashed" });
    expect(win.webContents.loaded).toEqual([APP_URL, APP_URL]);
  });
});
