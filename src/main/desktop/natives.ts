// Which better-sqlite3 build the desktop app loads. From a checkout, `npm start` builds an
// Electron copy into node_modules/.toolnexus-electron (scripts/electron-natives.mjs; the path is
// checked against that script by test/unit/main/desktop/natives.test.ts), because node_modules' own
// build is for Node and cannot load in Electron. A packaged app has node_modules rebuilt for
// Electron by electron-builder, inside app.asar's unpacked folder, and needs no override.
import { existsSync } from "node:fs";
import path from "node:path";

export interface HistoryNative {
  binding?: string;
  fix: string;
}

export function desktopHistoryNative(appRoot: string, exists: (file: string) => boolean = existsSync): HistoryNative {
  if (appRoot.split(path.sep).some((part) => part.endsWith(".asar"))) return { fix: "reinstall Toolnexus Companion (its history module is damaged)" };
  const binding = path.join(appRoot, "node_modules", ".toolnexus-electron", "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node");
  return { ...(exists(binding) ? { binding } : {}), fix: "npm run rebuild:electron" };
}
