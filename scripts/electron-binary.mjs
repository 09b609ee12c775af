// Where the Electron binary of node_modules/electron is, without ever downloading it.
// `require("electron")` downloads the binary when it is missing and throws a stack trace with
// advice that deletes the very package it names; `npm start` asks this module instead, so a
// machine that could not fetch Electron gets one paragraph that says what to do.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** @returns {{ ok: true, path: string, version: string, abi: string } | { ok: false, message: string }} */
export function findElectronBinary(root) {
  const pkgDir = path.join(root, "node_modules", "electron");
  if (!existsSync(path.join(pkgDir, "package.json"))) {
    return { ok: false, message: paragraph("the electron package is not installed (run `npm install` first)") };
  }
  const version = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")).version;
  const abi = existsSync(path.join(pkgDir, "abi_version")) ? readFileSync(path.join(pkgDir, "abi_version"), "utf8").trim() : "";
  const pathFile = path.join(pkgDir, "path.txt");
  const relative = existsSync(pathFile) ? readFileSync(pathFile, "utf8").trim() : "";
  const binary = relative ? path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(pkgDir, "dist"), relative) : "";
  if (!binary || !existsSync(binary)) {
    return { ok: false, message: paragraph(`the Electron ${version} binary was never downloaded (npm install runs node_modules/electron/install.js, which fetches it from Electron's releases; that failed or was skipped)`) };
  }
  return { ok: true, path: binary, version, abi };
}

function paragraph(cause) {
  return [
    `npm start: the desktop app cannot start because ${cause}.`,
    "This is a network problem, not one of the companion's: the download needs to reach Electron's releases, or a mirror of them.",
    "Behind a proxy, set HTTPS_PROXY; with a mirror, set ELECTRON_MIRROR to the mirror's URL;",
    "then run `node node_modules/electron/install.js` and `npm start` again.",
    "Meanwhile the same companion runs in your browser: `npm run serve` prints a link to open.",
  ].join("\n");
}
