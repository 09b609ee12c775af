// The tray-host probe against a real session bus (dbus-run-session, as scripts/test.sh runs the
// suite): a bus with no StatusNotifierWatcher, as on stock GNOME, means no tray will be seen.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { statusNotifierWatcherPresent, trayWillShow } from "../../../src/main/desktop/tray-host";

const root = path.resolve(__dirname, "../../..");

describe("is there a tray host?", () => {
  it("no, on a real session bus where nobody watches for status notifiers", () => {
    const script = `import { statusNotifierWatcherPresent } from ${JSON.stringify(path.join(root, "src/main/desktop/tray-host.ts"))};
statusNotifierWatcherPresent().then((present) => console.log(JSON.stringify({ present, bus: Boolean(process.env.DBUS_SESSION_BUS_ADDRESS) })));`;
    const out = execFileSync("dbus-run-session", ["--", process.execPath, path.join(root, "node_modules/tsx/dist/cli.mjs"), "--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(JSON.parse(out.trim())).toEqual({ present: false, bus: true });
  });

  it("no, without a session bus at all", async () => {
    expect(await statusNotifierWatcherPresent({ PATH: process.env.PATH })).toBe(false);
  });

  it("always on macOS and Windows; on Linux, whatever the bus says", async () => {
    expect(await trayWillShow("darwin", async () => false)).toBe(true);
    expect(await trayWillShow("win32", async () => false)).toBe(true);
    expect(await trayWillShow("linux", async () => true)).toBe(true);
    expect(await trayWillShow("linux", async () => false)).toBe(false);
  });
});
