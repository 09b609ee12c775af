import path from "node:path";
import { describe, expect, it } from "vitest";
import { desktopHistoryNative } from "../../../../src/main/desktop/natives";
// @ts-expect-error: a plain .mjs build script without types
import { electronSqlitePath } from "../../../../scripts/electron-natives.mjs";
import { explainNativeLoadError } from "../../../../src/main/base/native-addon";

describe("the desktop app's better-sqlite3", () => {
  const root = path.resolve("/home/me/toolnexus-companion");

  it("is the Electron build npm start makes, at the path the build script writes", () => {
    const expected = electronSqlitePath(root) as string;
    expect(desktopHistoryNative(root, (file) => file === expected)).toEqual({ binding: expected, fix: "npm run rebuild:electron" });
  });

  it("falls back to node_modules' build when none was made, still naming the command that makes it", () => {
    expect(desktopHistoryNative(root, () => false)).toEqual({ fix: "npm run rebuild:electron" });
  });

  it("is electron-builder's own in a packaged app", () => {
    const packaged = desktopHistoryNative(path.join("/opt/Toolnexus Companion/resources/app.asar"), () => true);
    expect(packaged.binding).toBeUndefined();
    expect(packaged.fix).toMatch(/reinstall/);
  });
});

describe("explainNativeLoadError", () => {
  it("names the addon, both ABIs and the fix for Node's ABI message", () => {
    const error = new Error(
      "The module '/x/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 150. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
    );
    expect(explainNativeLoadError("better-sqlite3", error, "npm run rebuild:electron")).toBe(
      "better-sqlite3 was built for Node 20 (NODE_MODULE_VERSION 115) but this runtime needs NODE_MODULE_VERSION 150; run `npm run rebuild:electron` to build it for this runtime",
    );
  });

  it("explains a foreign binary and a missing one", () => {
    expect(explainNativeLoadError("keytar", new Error("/x/keytar.node: invalid ELF header"), "npm rebuild keytar")).toMatch(/another platform.*npm rebuild keytar/);
    expect(explainNativeLoadError("better-sqlite3", new Error("Could not locate the bindings file. Tried: …"), "npm rebuild better-sqlite3")).toMatch(/missing/);
  });

  it("leaves other failures to the caller", () => {
    expect(explainNativeLoadError("better-sqlite3", new Error("SQLITE_CANTOPEN: unable to open database file"), "x")).toBeUndefined();
  });
});
