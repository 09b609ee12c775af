// The one question window, made by the one hardened factory. Closing hides it: a closed window
// answers nothing, and the questions stay in the tray until answered or withdrawn.
import { BrowserWindow, nativeTheme, type Session, type WebContents } from "electron";
import type { EventChannel, EventMap } from "../../shared/contract";
import { APP_URL } from "./app-url";
import { isAllowedNavigation } from "./guards";
import { windowOptions } from "./window-options";

export interface WindowPaths {
  preloadPath: string;
  iconPath?: string;
}

/** Guards every WebContents gets, ours or not (also applied app-wide on web-contents-created). */
export function hardenWebContents(contents: WebContents, appUrl: string = APP_URL, log?: (line: string) => void): void {
  contents.setWindowOpenHandler(({ url }) => {
    log?.(`window: denied window.open(${url})`);
    return { action: "deny" };
  });
  const guard = (event: { preventDefault(): void }, url: string) => {
    if (isAllowedNavigation(url, appUrl)) return;
    event.preventDefault();
    log?.(`window: blocked navigation to ${url}`);
  };
  contents.on("will-navigate", (event) => guard(event, event.url));
  contents.on("will-redirect", (event) => guard(event, event.url));
  contents.on("will-attach-webview", (event) => event.preventDefault());
}

/** Denies every permission (camera, notifications, clipboard, …): the page needs none. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}

/** The single hardened window factory. */
export function createHardenedWindow(paths: WindowPaths, appUrl: string = APP_URL, log?: (line: string) => void): BrowserWindow {
  const win = new BrowserWindow(windowOptions({ ...paths, dark: nativeTheme.shouldUseDarkColors }));
  hardenWebContents(win.webContents, appUrl, log);
  hardenSession(win.webContents.session);
  return win;
}

export class MainWindow {
  private win: BrowserWindow | null = null;
  private loaded = false;
  /** ready-to-show fires once per window; a reload must not wait for it again. */
  private painted = false;
  private quitting = false;
  private pendingFocus: string | null = null;

  constructor(
    private readonly paths: WindowPaths,
    private readonly appUrl: string = APP_URL,
    private readonly log?: (line: string) => void,
  ) {}

  /** Our page's WebContents id, for the IPC sender check. */
  webContentsId(): number | undefined {
    return this.win && !this.win.isDestroyed() ? this.win.webContents.id : undefined;
  }

  /** From here on a close really closes (Quit). */
  allowClose(): void {
    this.quitting = true;
  }

  show(): void {
    const win = this.ensure();
    if (win.isMinimized()) win.restore();
    if (this.painted) {
      win.show();
      win.focus();
    } else {
      win.once("ready-to-show", () => {
        win.show();
        win.focus();
      });
    }
  }

  /**
   * Forwards a core event to the page. Before the page has loaded, events are dropped (it reads
   * the current state when it starts) except the latest `inbox:focus`, delivered once loaded.
   */
  send<E extends EventChannel>(channel: E, payload: EventMap[E]): void {
    const loaded = this.win !== null && !this.win.isDestroyed() && this.loaded;
    if (!loaded) {
      if (channel === "inbox:focus") this.pendingFocus = (payload as EventMap["inbox:focus"]).id;
      return;
    }
    this.win!.webContents.send(channel, payload);
  }

  private ensure(): BrowserWindow {
    if (this.win && !this.win.isDestroyed()) return this.win;
    const win = createHardenedWindow(this.paths, this.appUrl, this.log);
    this.win = win;
    this.loaded = false;
    this.painted = false;
    win.once("ready-to-show", () => {
      this.painted = true;
    });
    win.on("close", (event) => {
      if (this.quitting) return;
      event.preventDefault();
      win.hide();
    });
    win.on("closed", () => {
      if (this.win === win) this.win = null;
    });
    win.webContents.on("did-finish-load", () => {
      this.loaded = true;
      if (this.pendingFocus !== null) {
        const id = this.pendingFocus;
        this.pendingFocus = null;
        win.webContents.send("inbox:focus", { id });
      }
    });
    // A reload (Ctrl+R) or a renderer crash starts the page over; events resume after it loads.
    win.webContents.on("did-start-loading", () => {
      this.loaded = false;
    });
    win.webContents.on("render-process-gone", (_event, details) => {
      this.log?.(`window: renderer gone (${details.reason}); reloading`);
      this.loaded = false;
      if (!win.isDestroyed()) void win.loadURL(this.appUrl);
    });
    void win.loadURL(this.appUrl).catch((error: unknown) => this.log?.(`window: load failed: ${String(error)}`));
    return win;
  }
}
