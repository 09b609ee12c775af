import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { parseDesktopArgs } from "../../../../src/main/desktop/args";
import { defaultConfigPath } from "../../../../src/main/mcp/config/file";
import { LinuxAutostart, autostartDir, autostartEntry } from "../../../../src/main/desktop/autostart";
import { electronPlatform } from "../../../../src/main/desktop/platform";

function deps(platform: NodeJS.Platform, dir?: string) {
  const shell = { openExternal: vi.fn(async () => {}) };
  let loginItem = { openAtLogin: false };
  const app = {
    getLoginItemSettings: vi.fn(() => loginItem as never),
    setLoginItemSettings: vi.fn((s: { openAtLogin?: boolean }) => {
      loginItem = { openAtLogin: !!s.openAtLogin };
    }),
  };
  return { shell, app, platform, ...(dir ? { linuxAutostart: new LinuxAutostart("/opt/Companion.AppImage", ["--hidden"], dir) } : {}) };
}

describe("electronPlatform.openExternal", () => {
  it("hands an http(s) url to the system browser", async () => {
    const d = deps("darwin");
    await electronPlatform(d).openExternal("https://github.com/login/device");
    expect(d.shell.openExternal).toHaveBeenCalledWith("https://github.com/login/device", { activate: true });
  });

  it.each(["file:///etc/passwd", "javascript:alert(1)", "smb://host/share", "https://a@b.example/"])("never opens %s", async (url) => {
    const d = deps("darwin");
    await expect(electronPlatform(d).openExternal(url)!).rejects.toMatchObject({ code: "invalid-url" });
    expect(d.shell.openExternal).not.toHaveBeenCalled();
  });
});

describe("start at login", () => {
  it("uses Electron's login items on macOS and Windows", () => {
    const d = deps("win32");
    const platform = electronPlatform(d);
    expect(platform.getStartAtLogin()).toBe(false);
    platform.setStartAtLogin(true);
    expect(d.app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true, args: ["--hidden"] });
    expect(platform.getStartAtLogin()).toBe(true);
  });

  it("writes and removes a freedesktop autostart entry on Linux", () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "companion-autostart-")), "autostart");
    const d = deps("linux", dir);
    const platform = electronPlatform(d);
    expect(platform.getStartAtLogin()).toBe(false);
    platform.setStartAtLogin(true);
    expect(platform.getStartAtLogin()).toBe(true);
    const text = readFileSync(path.join(dir, "toolnexus-companion.desktop"), "utf8");
    expect(text).toContain("Exec=/opt/Companion.AppImage --hidden\n");
    expect(text).toContain("X-GNOME-Autostart-enabled=true");
    platform.setStartAtLogin(false);
    expect(platform.getStartAtLogin()).toBe(false);
    expect(d.app.setLoginItemSettings).not.toHaveBeenCalled();
  });

  it("quotes Exec arguments with spaces and specials", () => {
    expect(autostartEntry("/home/a b/Companion.AppImage", ["--hidden"])).toContain('Exec="/home/a b/Companion.AppImage" --hidden');
    expect(autostartEntry('/x/$weird"', [])).toContain('Exec="/x/\\$weird\\""');
  });

  it("follows XDG_CONFIG_HOME", () => {
    expect(autostartDir({ XDG_CONFIG_HOME: "/cfg" }, "/home/u")).toBe("/cfg/autostart");
    expect(autostartDir({}, "/home/u")).toBe("/home/u/.config/autostart");
  });
});

describe("parseDesktopArgs", () => {
  it("reads --config in both spellings among Electron's own arguments", () => {
    expect(parseDesktopArgs(["/app", "--no-sandbox", "--config", "./mcp.json"], {}, "/home/u").configPath).toBe(path.resolve("./mcp.json"));
    expect(parseDesktopArgs(["--config=/etc/c.json", "--hidden"], {}, "/home/u")).toEqual({ configPath: "/etc/c.json", hidden: true });
  });

  it("defaults to TOOLNEXUS_CONFIG, then ~/.config/toolnexus-companion/mcp.json", () => {
    expect(parseDesktopArgs([], { TOOLNEXUS_CONFIG: "/srv/mcp.json" }, "/home/u")).toEqual({ configPath: "/srv/mcp.json", hidden: false });
    expect(defaultConfigPath({}, "/home/u")).toBe("/home/u/.config/toolnexus-companion/mcp.json");
    expect(parseDesktopArgs(["--config"], {}, "/home/u").configPath).toBe("/home/u/.config/toolnexus-companion/mcp.json");
  });

  it("reads --port and refuses nonsense", () => {
    expect(parseDesktopArgs(["--port", "0"], {}, "/h").port).toBe(0);
    expect(parseDesktopArgs(["--port=7400"], {}, "/h").port).toBe(7400);
    expect(parseDesktopArgs([], {}, "/h").port).toBeUndefined();
    expect(() => parseDesktopArgs(["--port", "http"], {}, "/h")).toThrow(/--port/);
    expect(() => parseDesktopArgs(["--port=70000"], {}, "/h")).toThrow(/--port/);
  });
});
