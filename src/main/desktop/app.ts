// The desktop app's lifecycle: one instance, a tray that outlives the window, notifications,
// the hardened window, IPC, and a Quit that closes the core (cancelling every pending question
// and stopping every MCP client and child process) before the process exits.
import { Menu, Tray, app, ipcMain, nativeTheme, protocol, session, shell } from "electron";
import type { Settings } from "../../shared/contract";
import type { ServerView } from "../../shared/types";
import { APP_SCHEME, APP_URL, CONTENT_SECURITY_POLICY } from "./app-url";
import { appProtocolHandler } from "./app-protocol";
import { trayIconPath } from "./icons";
import { forwardEvents, registerHandlers } from "./ipc";
import { NotificationService } from "./notifications";
import { notificationActionsSupported, systemNotification } from "./system-notification";
import { electronPlatform } from "./platform";
import { TrayService } from "./tray";
import { NO_TRAY_HOST_HINT, trayWillShow } from "./tray-host";
import type { DesktopCore, DesktopPlatform } from "./types";
import { MainWindow, hardenSession, hardenWebContents } from "./window";
import { errorMessage } from "../../shared/unknown-value";

export interface DesktopPaths {
  /** The built renderer (index.html and its assets). */
  rendererDir: string;
  /** out/preload/index.cjs */
  preloadPath: string;
  /** Tray and window icons. */
  assetsDir: string;
}

export interface RunDesktopOptions {
  paths: DesktopPaths;
  createCore(platform: DesktopPlatform): Promise<DesktopCore>;
  /**
   * Where the shell's lines go. Lines here quote errors (a failed handler, a window's load error),
   * so the sink must be the process's scrubbed one (app/electron.ts gives it; app/egress.ts).
   */
  log: (line: string) => void;
  /** Launched at login (`--hidden`): stay in the tray unless something is waiting. */
  startHidden?: boolean;
  /** Quit on SIGINT/SIGTERM (default true; tests turn it off). */
  handleSignals?: boolean;
  /** How long Quit waits for the core to close before exiting anyway. */
  closeTimeoutMs?: number;
  /** Whether a tray icon will be seen on this desktop (default: tray-host.ts asks the session bus). */
  trayWillShow?: () => Promise<boolean>;
}

/** Must run before `ready`: our page's scheme gets a real origin, fetch and secure-context rights. */
function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false, stream: false } },
  ]);
}

function isPaused(settings: Pick<Settings, "notificationsPaused" | "pausedUntil">, now = Date.now()): boolean {
  return settings.notificationsPaused && (settings.pausedUntil === undefined || settings.pausedUntil > now);
}

/** Runs the desktop app. Resolves once it is up (or at once, when another instance owns the lock). */
export async function runDesktopApp(options: RunDesktopOptions): Promise<void> {
  const { log } = options;
  registerAppScheme();

  if (!app.requestSingleInstanceLock()) {
    // The first instance gets `second-instance` and shows its window; we leave quietly.
    app.quit();
    return;
  }
  if (process.platform === "win32") app.setAppUserModelId("dev.toolnexus.companion");

  // Defence in depth: whatever WebContents ever appears gets the same guards as ours.
  app.on("web-contents-created", (_event, contents) => hardenWebContents(contents, APP_URL, log));
  // A tray app keeps running with no window; registering the listener stops the default quit.
  app.on("window-all-closed", () => undefined);

  let window: MainWindow | null = null;
  app.on("second-instance", () => window?.show());
  app.on("activate", () => window?.show());

  await app.whenReady();
  serveOurPages(options.paths.rendererDir);

  const platform = electronPlatform({ shell, app });
  const core = await options.createCore(platform);

  const win = new MainWindow({ preloadPath: options.paths.preloadPath, iconPath: trayIconPath(options.paths.assetsDir, "light", false) }, APP_URL, log);
  window = win;
  const views = createViews(core, win, options);
  const unwire = wireViews(core, win, views, log);

  // The tray menu shows prompts as servers wrote them: the core gives them scrubbed.
  views.tray.start({ pending: core.pending(), servers: core.servers(), settings: core.settings() });
  // A person launching the app expects a window; a login launch stays in the tray unless
  // something is already waiting, or no tray can be seen on this desktop (tray-host.ts).
  const trayShows = await (options.trayWillShow ?? (() => trayWillShow()))();
  if (!trayShows) log(NO_TRAY_HOST_HINT);
  if (!options.startHidden || core.pending().length > 0 || !trayShows) win.show();

  quitInOrder(options, async () => {
    win.allowClose();
    unwire();
    views.notifications.clear();
    views.tray.destroy();
    await closeCore(core, options.closeTimeoutMs ?? 5_000, log);
  });
}

/** The default session: hardened, our scheme served from the built renderer, every response with our CSP. */
function serveOurPages(rendererDir: string): void {
  const ses = session.defaultSession;
  hardenSession(ses);
  ses.protocol.handle(APP_SCHEME, appProtocolHandler(rendererDir));
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, "Content-Security-Policy": [CONTENT_SECURITY_POLICY] } });
  });
}

interface Views {
  tray: TrayService;
  notifications: NotificationService;
}

/** The tray and the notifications, whose actions go to the window and the core's handlers. */
function createViews(core: DesktopCore, win: MainWindow, options: RunDesktopOptions): Views {
  const { log } = options;
  // Shows the window and asks every view to show the question; the window holds the request
  // until its page has loaded.
  const openQuestion = (id: string) => {
    win.show();
    core.focus(id);
  };
  const call = (run: () => Promise<unknown>, what: string) => {
    run().catch((error: unknown) => log(`desktop: ${what} failed: ${errorMessage(error)}`));
  };

  const tray = new TrayService({
    createTray: (icon) => new Tray(icon),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    iconPath: (variant, attention) => trayIconPath(options.paths.assetsDir, variant, attention),
    useTemplateIcon: process.platform === "darwin",
    isDarkTheme: () => nativeTheme.shouldUseDarkColors,
    setBadgeCount: (count) => {
      app.setBadgeCount(count);
    },
    actions: {
      openQuestion: (id) => openQuestion(id),
      openWindow: () => win.show(),
      pauseNotifications: (minutes) => call(() => core.handlers["settings:pauseNotifications"]({ minutes }), "pause notifications"),
      resumeNotifications: () => call(() => core.handlers["settings:resumeNotifications"](undefined), "resume notifications"),
      setStartAtLogin: (enabled) => call(() => core.handlers["settings:startAtLogin"]({ enabled }), "start at login"),
      quit: () => app.quit(),
    },
  });

  const notifications = new NotificationService({
    create: systemNotification,
    isPaused: () => isPaused(core.settings()),
    openQuestion: (id) => openQuestion(id),
    openWindow: () => win.show(),
    // A rule's quiet note offers "Undo rule" where the system shows buttons (macOS, Windows).
    actionsSupported: notificationActionsSupported(),
    undoRule: (id) => call(() => core.handlers["rules:remove"]({ id }), "undo a rule"),
  });
  return { tray, notifications };
}

/** IPC for the window's page, every core event to it, to the tray and to notifications; returns the undo. */
function wireViews(core: DesktopCore, win: MainWindow, { tray, notifications }: Views, log: (line: string) => void): () => void {
  const unregister = registerHandlers(ipcMain, core.handlers, { ourWebContentsId: () => win.webContentsId(), appUrl: APP_URL, log });
  const unforward = forwardEvents(core.events, (channel, payload) => win.send(channel, payload));
  const offs = [
    core.events.on("inbox:event", (event) => {
      if (event.type === "added") notifications.added(event.entry, event.byRule);
      else if (event.type === "answered" || event.type === "withdrawn") {
        if (event.type === "answered" && event.by === "rule") notifications.ruleAnswered(event.id, event.ruleId);
        notifications.removed(event.id);
      }
      tray.update({ pending: core.pending() });
    }),
    core.events.on("servers:changed", (servers: ServerView[]) => tray.update({ servers })),
    core.events.on("settings:changed", (settings: Settings) => tray.update({ settings })),
  ];
  const onTheme = () => tray.themeChanged();
  nativeTheme.on("updated", onTheme);
  return () => {
    for (const off of offs) off();
    unforward();
    unregister();
    nativeTheme.removeListener("updated", onTheme);
  };
}

/** Closes the core, or gives up after `timeoutMs` so Quit always ends the process. */
async function closeCore(core: DesktopCore, timeoutMs: number, log: (line: string) => void): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      log(`desktop: core did not close within ${timeoutMs} ms; exiting anyway`);
      resolve();
    }, timeoutMs);
  });
  try {
    await Promise.race([core.close(), timeout]);
  } catch (error) {
    log(`desktop: closing the core failed: ${errorMessage(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Holds every quit (the menu's, a signal's) until `shutdown` has run once, then exits. */
function quitInOrder(options: RunDesktopOptions, shutdown: () => Promise<void>): void {
  let closed = false;
  let shuttingDown: Promise<void> | null = null;
  app.on("before-quit", (event) => {
    if (closed) return;
    // Hold the quit until every pending question is answered `cancel` and every server is closed.
    event.preventDefault();
    shuttingDown ??= shutdown().finally(() => {
      closed = true;
      app.exit(0);
    });
  });
  if (options.handleSignals !== false) for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => app.quit());
}
