// The one set of options every window is created with. Pure so the hardening is unit-tested.
import type { BrowserWindowConstructorOptions } from "electron";

export interface WindowOptionsInput {
  /** Absolute path of the bundled CommonJS preload (out/preload/index.cjs). */
  preloadPath: string;
  /** Follows nativeTheme so the window does not flash white before the page paints. */
  dark?: boolean;
  iconPath?: string;
}

export function windowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    title: "Toolnexus Companion",
    width: 520,
    height: 680,
    minWidth: 360,
    minHeight: 420,
    // Shown once the page has painted, or when the person asks for it; never steals focus on start.
    show: false,
    autoHideMenuBar: true,
    backgroundColor: input.dark ? "#1e1e1e" : "#ffffff",
    ...(input.iconPath ? { icon: input.iconPath } : {}),
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  };
}
