// Whether a tray icon will be seen. On Linux, Electron's Tray is a StatusNotifierItem: it shows
// only where a host watches for them (KDE, XFCE, Cinnamon, Ubuntu's GNOME; stock GNOME only with
// the AppIndicator extension). Without one, `new Tray()` succeeds and nothing appears, so a
// login launch would run invisibly. The desktop then opens its window instead and says what to
// install. macOS and Windows always have a tray.
import { execFile } from "node:child_process";

export const NO_TRAY_HOST_HINT =
  "desktop: no system tray host was found on this desktop, so the window stays open instead. On GNOME, install the AppIndicator extension (Debian/Ubuntu: gnome-shell-extension-appindicator) and log in again to get the tray.";

/** Asks the session bus whether anyone owns org.kde.StatusNotifierWatcher (1.5 s at most). */
export function statusNotifierWatcherPresent(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (!env.DBUS_SESSION_BUS_ADDRESS) return Promise.resolve(false);
  return new Promise((resolve) => {
    execFile(
      "dbus-send",
      ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:org.kde.StatusNotifierWatcher"],
      { env, timeout: 1_500 },
      // No dbus-send, no bus, a timeout: none of them shows a tray either.
      (error, stdout) => resolve(!error && /boolean true/.test(stdout)),
    );
  });
}

export async function trayWillShow(platform: NodeJS.Platform = process.platform, probe: () => Promise<boolean> = statusNotifierWatcherPresent): Promise<boolean> {
  if (platform !== "linux") return true;
  return probe();
}
