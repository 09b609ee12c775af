// The Platform the core calls: the system browser and start-at-login, Electron-backed.
import type { App, Shell } from "electron";
import { LinuxAutostart } from "./autostart";
import { canOpenExternal } from "./guards";
import type { DesktopPlatform } from "./types";

export interface ElectronPlatformDeps {
  shell: Pick<Shell, "openExternal">;
  app: Pick<App, "getLoginItemSettings" | "setLoginItemSettings">;
  platform?: NodeJS.Platform;
  /** Linux only: how the autostart entry launches us (the AppImage path when run as one). */
  linuxAutostart?: LinuxAutostart;
}

export function electronPlatform(deps: ElectronPlatformDeps): DesktopPlatform {
  const os = deps.platform ?? process.platform;
  const linux = os === "linux" ? (deps.linuxAutostart ?? new LinuxAutostart(process.env.APPIMAGE || process.execPath, ["--hidden"])) : null;
  return {
    openExternal(url) {
      // The core only passes a pending authorization question's url after the person clicked
      // "Open"; this is the last gate before the OS hands it to a protocol handler.
      if (!canOpenExternal(url)) return Promise.reject(Object.assign(new Error("only http(s) links can be opened"), { code: "invalid-url" }));
      return deps.shell.openExternal(url, { activate: true });
    },
    getStartAtLogin() {
      return linux ? linux.isEnabled() : deps.app.getLoginItemSettings({ args: ["--hidden"] }).openAtLogin;
    },
    setStartAtLogin(enabled) {
      if (linux) linux.setEnabled(enabled);
      else deps.app.setLoginItemSettings({ openAtLogin: enabled, args: ["--hidden"] });
    },
  };
}
