// The README's set-up is what CI proves: .ci/run installs exactly the Debian packages the README
// tells a person to install (build tools and libsecret, then what the tests need), no more.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");

function readmeAptPackages(): string[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  return [...readme.matchAll(/sudo apt-get install -y ([^`\n]+)/g)].flatMap((m) => m[1]!.trim().split(/\s+/));
}

function ciPackages(): string[] {
  const run = readFileSync(path.join(root, ".ci/run"), "utf8");
  const m = /^packages=\(([^)]*)\)/m.exec(run);
  return m ? m[1]!.trim().split(/\s+/) : [];
}

describe("the README's set-up and .ci/run", () => {
  it("name the same Debian packages", () => {
    expect(readmeAptPackages().length).toBeGreaterThan(0);
    expect([...ciPackages()].sort()).toEqual([...new Set(readmeAptPackages())].sort());
  });

  it("state the Node version Electron's tools require", () => {
    const electron = JSON.parse(readFileSync(path.join(root, "node_modules/electron/package.json"), "utf8"));
    const required = /(\d+\.\d+)/.exec(electron.engines.node)![1];
    expect(readFileSync(path.join(root, "README.md"), "utf8")).toContain(`Node.js ${required} or newer`);
  });
});
