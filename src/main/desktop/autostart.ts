// Start at login. Electron's setLoginItemSettings covers macOS and Windows; on Linux the
// freedesktop way is a .desktop file in ~/.config/autostart, which we write ourselves.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { writeFileSafeSync } from "../base/safe-write";
import os from "node:os";
import path from "node:path";

const AUTOSTART_FILE = "toolnexus-companion.desktop";

export function autostartDir(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  return path.join(env.XDG_CONFIG_HOME || path.join(home, ".config"), "autostart");
}

/** Quotes an Exec argument per the Desktop Entry spec. */
function execQuote(arg: string): string {
  return /[\s"'\\`$]/.test(arg) ? `"${arg.replace(/(["`$\\])/g, "\\$1")}"` : arg;
}

/** The .desktop entry; `command` is the AppImage path when run as one, else the executable. */
export function autostartEntry(command: string, args: string[] = []): string {
  return [
    "[Desktop Entry]",
    "Type=Application",
    "Name=Toolnexus Companion",
    "Comment=Answer your agents' and MCP servers' questions",
    `Exec=${[command, ...args].map(execQuote).join(" ")}`,
    "Terminal=false",
    "X-GNOME-Autostart-enabled=true",
    "",
  ].join("\n");
}

export class LinuxAutostart {
  constructor(
    private readonly command: string,
    private readonly args: string[] = [],
    private readonly dir: string = autostartDir(),
  ) {}

  get file(): string {
    return path.join(this.dir, AUTOSTART_FILE);
  }

  isEnabled(): boolean {
    if (!existsSync(this.file)) return false;
    return !/^X-GNOME-Autostart-enabled=false$/m.test(readFileSync(this.file, "utf8"));
  }

  setEnabled(enabled: boolean): void {
    if (!enabled) {
      rmSync(this.file, { force: true });
      return;
    }
    // The session runs this file at login: written like every other file (base/safe-write.ts).
    writeFileSafeSync(this.file, autostartEntry(this.command, this.args), { mode: 0o644, dirMode: 0o755 });
  }
}
