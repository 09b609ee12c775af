// A recording stand-in for the `electron` module (its binary cannot run here). Only what the
// desktop code touches, with Electron's observable behaviour: events, preventDefault, handlers.
import { EventEmitter } from "node:events";
import { vi } from "vitest";

export class FakeEvent {
  defaultPrevented = false;
  constructor(readonly url = "") {}
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

let nextId = 1;

export class FakeSession {
  permissionRequest?: (wc: unknown, permission: string, callback: (granted: boolean) => void) => void;
  permissionCheck?: (...args: unknown[]) => boolean;
  devicePermission?: (...args: unknown[]) => boolean;
  protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  headersListener?: (details: { responseHeaders?: Record<string, string[]> }, callback: (r: unknown) => void) => void;
  protocol = { handle: (scheme: string, handler: (request: Request) => Promise<Response>) => void this.protocolHandlers.set(scheme, handler) };
  webRequest = { onHeadersReceived: (listener: FakeSession["headersListener"]) => void (this.headersListener = listener) };
  setPermissionRequestHandler(handler: FakeSession["permissionRequest"]) {
    this.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: FakeSession["permissionCheck"]) {
    this.permissionCheck = handler;
  }
  setDevicePermissionHandler(handler: FakeSession["devicePermission"]) {
    this.devicePermission = handler;
  }
}

export class FakeWebContents extends EventEmitter {
  readonly id = nextId++;
  session = fake.session;
  sent: Array<[string, unknown]> = [];
  loaded: string[] = [];
  windowOpenHandler?: (details: { url: string }) => { action: string };
  send(channel: string, payload: unknown) {
    this.sent.push([channel, payload]);
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  async loadURL(url: string) {
    this.loaded.push(url);
  }
  /** Simulates the page loading: Electron emits these in this order. */
  finishLoad(win: FakeBrowserWindow) {
    this.emit("did-start-loading");
    win.emit("ready-to-show");
    this.emit("did-finish-load");
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static created: FakeBrowserWindow[] = [];
  webContents = new FakeWebContents();
  visible = false;
  focused = false;
  destroyed = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.created.push(this);
  }
  loadURL(url: string) {
    return this.webContents.loadURL(url);
  }
  show() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
  }
  focus() {
    this.focused = true;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  isDestroyed() {
    return this.destroyed;
  }
  /** What happens when the person clicks the close button. */
  close() {
    const event = new FakeEvent();
    this.emit("close", event);
    if (event.defaultPrevented) return;
    this.destroyed = true;
    this.emit("closed");
  }
}

export class FakeTray {
  static created: FakeTray[] = [];
  tooltip = "";
  title = "";
  menu: unknown;
  destroyed = false;
  private readonly emitter = new EventEmitter();
  constructor(public image: string) {
    FakeTray.created.push(this);
  }
  setToolTip(t: string) {
    this.tooltip = t;
  }
  setTitle(t: string) {
    this.title = t;
  }
  setImage(i: string) {
    this.image = i;
  }
  setContextMenu(m: unknown) {
    this.menu = m;
  }
  on(event: string, listener: () => void) {
    this.emitter.on(event, listener);
    return this;
  }
  destroy() {
    this.destroyed = true;
  }
}

export class FakeNotification extends EventEmitter {
  static shown: FakeNotification[] = [];
  static isSupported() {
    return true;
  }
  constructor(readonly options: { title: string; body: string }) {
    super();
  }
  show() {
    FakeNotification.shown.push(this);
  }
  close() {}
}

class FakeApp extends EventEmitter {
  lock = true;
  quit = vi.fn(() => {
    const event = new FakeEvent();
    this.emit("before-quit", event);
  });
  exit = vi.fn();
  badge = 0;
  loginItem = { openAtLogin: false };
  setAppUserModelId = vi.fn();
  requestSingleInstanceLock() {
    return this.lock;
  }
  whenReady() {
    return Promise.resolve();
  }
  setBadgeCount(count: number) {
    this.badge = count;
    return true;
  }
  getLoginItemSettings() {
    return this.loginItem;
  }
  setLoginItemSettings(settings: { openAtLogin: boolean }) {
    this.loginItem = { openAtLogin: settings.openAtLogin };
  }
}

export const fake = {
  session: new FakeSession(),
  app: new FakeApp(),
  nativeTheme: Object.assign(new EventEmitter(), { shouldUseDarkColors: false }),
  ipcHandlers: new Map<string, (event: unknown, arg: unknown) => Promise<unknown>>(),
  privilegedSchemes: [] as unknown[],
  opened: [] as string[],
  reset() {
    this.session = new FakeSession();
    this.app = new FakeApp();
    this.nativeTheme = Object.assign(new EventEmitter(), { shouldUseDarkColors: false });
    this.ipcHandlers.clear();
    this.privilegedSchemes = [];
    this.opened = [];
    FakeBrowserWindow.created = [];
    FakeTray.created = [];
    FakeNotification.shown = [];
  },
};

/** The module `vi.mock("electron", …)` returns; getters so reset() takes effect. */
export const electronModule = {
  BrowserWindow: FakeBrowserWindow,
  Tray: FakeTray,
  Notification: FakeNotification,
  Menu: { buildFromTemplate: (template: unknown[]) => ({ template }) },
  get app() {
    return fake.app;
  },
  get nativeTheme() {
    return fake.nativeTheme;
  },
  get session() {
    return { defaultSession: fake.session };
  },
  protocol: { registerSchemesAsPrivileged: (schemes: unknown[]) => void fake.privilegedSchemes.push(...schemes) },
  ipcMain: {
    handle: (channel: string, listener: (event: unknown, arg: unknown) => Promise<unknown>) => {
      if (fake.ipcHandlers.has(channel)) throw new Error(`second handler for ${channel}`);
      fake.ipcHandlers.set(channel, listener);
    },
    removeHandler: (channel: string) => void fake.ipcHandlers.delete(channel),
  },
  shell: {
    openExternal: async (url: string) => {
      fake.opened.push(url);
    },
  },
};
