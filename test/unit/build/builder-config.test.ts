// electron-builder cannot run here (it needs the Electron zip), so its config is checked the way
// electron-builder itself would first check it: parsed, then validated against its own schema.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Ajv from "ajv";
import YAML from "yaml";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const config = YAML.parse(readFileSync(path.join(root, "electron-builder.yml"), "utf8"));
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

describe("electron-builder.yml", () => {
  it("is valid against electron-builder's own schema", () => {
    const schema = JSON.parse(readFileSync(path.join(root, "node_modules/app-builder-lib/scheme.json"), "utf8"));
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const ok = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it("names the app and packs only the bundle into an asar", () => {
    expect(config.appId).toBe("dev.toolnexus.companion");
    expect(config.productName).toBe("Toolnexus Companion");
    expect(config.asar).toBe(true);
    expect(config.files).toEqual(["out/**", "package.json"]);
    expect(pkg.main).toBe("out/main/index.js");
  });

  it("sets the Electron fuses", () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it("targets AppImage and deb (Utility), dmg and nsis, with icons that exist", () => {
    expect(config.linux.target).toEqual(["AppImage", "deb"]);
    expect(config.linux.category).toBe("Utility");
    expect(config.mac.target).toEqual(["dmg"]);
    expect(config.win.target).toEqual(["nsis"]);
    for (const os of ["linux", "mac", "win"]) {
      const icon = readFileSync(path.join(root, config[os].icon));
      expect(icon.subarray(1, 4).toString("ascii")).toBe("PNG");
      // electron-builder wants at least 512×512 for macOS and 256×256 for Windows.
      expect(icon.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
      expect(icon.readUInt32BE(20)).toBeGreaterThanOrEqual(512);
    }
    expect(config.directories.buildResources).toBe("assets");
  });

  it("keeps the native keychain module loadable outside the archive", () => {
    expect(config.asarUnpack).toContain("**/node_modules/keytar/**");
  });
});
