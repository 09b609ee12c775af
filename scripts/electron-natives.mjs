// Builds an Electron-ABI copy of better-sqlite3 into a folder of its own
// (node_modules/.toolnexus-electron), so `npm start` loads natives built for Electron while the
// same checkout's Node side (CLI, `npm run serve`, `npm test`) keeps node_modules' Node build.
// keytar needs no copy: it is a Node-API addon, loadable by any runtime with that API.
// The packaged app does not use this folder: electron-builder rebuilds node_modules (npmRebuild).
//
// Run by `npm start` (scripts/start-desktop.mjs) and as `npm run rebuild:electron`. It uses
// @electron/rebuild, which takes the prebuilt binary better-sqlite3 publishes for this Electron
// when it can be fetched, and otherwise compiles it against Electron's headers (python3, make,
// g++). A stamp file skips the work when the Electron ABI and the addon's version are unchanged.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const NATIVES_DIR_NAME = ".toolnexus-electron";

/** The .node file the desktop entry hands better-sqlite3 (src/main/history/native.ts reads the same path). */
export function electronSqlitePath(root) {
  return path.join(root, "node_modules", NATIVES_DIR_NAME, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node");
}

export async function buildElectronNatives(root, { electronVersion, abi, log = console.log }) {
  const dir = path.join(root, "node_modules", NATIVES_DIR_NAME);
  const sqlite = JSON.parse(readFileSync(path.join(root, "node_modules", "better-sqlite3", "package.json"), "utf8")).version;
  const stamp = JSON.stringify({ electronVersion, abi, sqlite });
  const stampFile = path.join(dir, "stamp.json");
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp && existsSync(electronSqlitePath(root))) return { built: false };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "toolnexus-electron-natives", private: true, dependencies: { "better-sqlite3": sqlite } }));
  // The copy leaves out the Node build, so what ends up in build/ is Electron's or nothing.
  cpSync(path.join(root, "node_modules", "better-sqlite3"), path.join(dir, "node_modules", "better-sqlite3"), {
    recursive: true,
    filter: (source) => !source.includes(`${path.sep}better-sqlite3${path.sep}build`),
  });
  log(`electron-natives: building better-sqlite3 ${sqlite} for Electron ${electronVersion} (ABI ${abi})…`);
  const { rebuild } = await import("@electron/rebuild");
  await rebuild({ buildPath: dir, electronVersion, onlyModules: ["better-sqlite3"], force: true });
  if (!existsSync(electronSqlitePath(root))) throw new Error("the rebuild finished but left no better_sqlite3.node");
  writeFileSync(stampFile, stamp);
  return { built: true };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const electron = JSON.parse(readFileSync(path.join(root, "node_modules", "electron", "package.json"), "utf8")).version;
  const abiFile = path.join(root, "node_modules", "electron", "abi_version");
  const abi = existsSync(abiFile) ? readFileSync(abiFile, "utf8").trim() : "";
  try {
    const { built } = await buildElectronNatives(root, { electronVersion: electron, abi });
    console.log(built ? "electron-natives: done" : "electron-natives: already built for this Electron");
  } catch (error) {
    console.error(`electron-natives: could not build better-sqlite3 for Electron ${electron}: ${error instanceof Error ? error.message : String(error)}`);
    console.error("It needs either the prebuilt binary (fetched from better-sqlite3's releases) or python3, make and g++ with Electron's headers.");
    process.exit(1);
  }
}
