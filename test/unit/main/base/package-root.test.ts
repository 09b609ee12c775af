// The install folder is found from the running file, wherever that file sits: a source file, a
// bundle under out/, or a packaged app whose resources folder ships the launcher.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { launcherPath, packageRoot } from "../../../../src/main/base/package-root";

const dir = mkdtempSync(join(tmpdir(), "tnc-root-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function install(at: string, name = "toolnexus-companion"): void {
  mkdirSync(join(at, "bin"), { recursive: true });
  writeFileSync(join(at, "package.json"), JSON.stringify({ name }));
  writeFileSync(join(at, "bin", "toolnexus-companion"), "");
}

describe("launcherPath", () => {
  it("finds bin/ from a bundle two folders deep and from a source file four deep, not a foreign package.json on the way", () => {
    const root = join(dir, "checkout");
    install(root);
    // A dependency's own package.json between the file and the root is not ours.
    install(join(root, "out", "serve"), "something-else");
    expect(launcherPath({ from: join(root, "out", "serve", "serve.js"), resourcesPath: "" })).toBe(join(root, "bin", "toolnexus-companion"));
    expect(launcherPath({ from: join(root, "src", "main", "cli", "agents.ts"), resourcesPath: "" })).toBe(join(root, "bin", "toolnexus-companion"));
    expect(packageRoot(join(root, "src", "main", "x.ts"))).toBe(root);
  });

  it("prefers a launcher shipped in a packaged app's resources", () => {
    const resources = join(dir, "app", "resources");
    mkdirSync(join(resources, "bin"), { recursive: true });
    writeFileSync(join(resources, "bin", "toolnexus-companion"), "");
    expect(launcherPath({ from: join(resources, "app.asar", "out", "main", "index.js"), resourcesPath: resources })).toBe(join(resources, "bin", "toolnexus-companion"));
  });

  it("says where it looked instead of returning a path that does not exist", () => {
    expect(() => launcherPath({ from: join(dir, "nowhere", "x.js"), resourcesPath: join(dir, "nores") })).toThrow(/cannot find the companion's launcher \(looked at .*nores/);
  });
});
