// `npm start` on a machine whose Electron binary could not be downloaded (this one: the package
// is installed, its binary is not): one paragraph with the cause, the way round, and
// `npm run serve`; no stack trace, no download attempted, no minute of building first.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../../..");

describe("npm start without Electron's binary", () => {
  it("says what happened and what to do, in one paragraph, at once", () => {
    // The premise: this machine has the electron package but never got its binary.
    expect(existsSync(path.join(root, "node_modules/electron/package.json"))).toBe(true);
    expect(existsSync(path.join(root, "node_modules/electron/path.txt"))).toBe(false);
    const started = Date.now();
    const result = spawnSync("npm", ["start", "--silent"], { cwd: root, encoding: "utf8", timeout: 60_000, env: { ...process.env, CI: "true" } });
    const elapsed = Date.now() - started;
    expect(result.status).toBe(1);
    const text = result.stderr;
    expect(text).toMatch(/^npm start: the desktop app cannot start because the Electron [\d.]+ binary was never downloaded/);
    expect(text).toContain("ELECTRON_MIRROR");
    expect(text).toContain("HTTPS_PROXY");
    expect(text).toContain("node node_modules/electron/install.js");
    expect(text).toContain("npm run serve");
    expect(text).not.toMatch(/\n\s+at |Error:|Downloading Electron/);
    // Electron's own index.js would have tried to download; nothing was fetched or built.
    expect(existsSync(path.join(root, "node_modules/electron/path.txt"))).toBe(false);
    expect(elapsed).toBeLessThan(15_000);
  });
});
