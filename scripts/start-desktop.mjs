// `npm start`: build the page and the Electron bundle, make sure the natives are built for
// Electron, then run the desktop app. Electron's binary is looked up first, without downloading
// (scripts/electron-binary.mjs), so a machine that could not fetch it learns that in one
// paragraph, before a minute of building, with `npm run serve` as the way to use the companion now.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findElectronBinary } from "./electron-binary.mjs";
import { buildElectronNatives } from "./electron-natives.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const electron = findElectronBinary(root);
if (!electron.ok) {
  console.error(electron.message);
  process.exit(1);
}

function step(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
step(process.execPath, [path.join(root, "node_modules", "vite", "bin", "vite.js"), "build", "--logLevel", "warn"]);
step(process.execPath, [path.join(root, "scripts", "build-electron.mjs")]);

try {
  await buildElectronNatives(root, { electronVersion: electron.version, abi: electron.abi });
} catch (error) {
  // The app still starts: history says it is off and why, with this same command to fix it.
  console.error(`npm start: better-sqlite3 could not be built for Electron ${electron.version} (${error instanceof Error ? error.message : String(error)}).`);
  console.error("The app starts without history. Fix: install python3, make and g++, then run `npm run rebuild:electron`.");
}

const child = spawn(electron.path, [path.join(root, "out", "main", "index.js"), ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
