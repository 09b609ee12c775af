import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openBook, readPushSubscription, readSetting } from "../../../../src/main/devices/book";
import { PairedDevices } from "../../../../src/main/devices/paired";
import { Pairing } from "../../../../src/main/devices/pairing";

const dir = () => mkdtempSync(join(tmpdir(), "tnc-book-"));

describe("the devices file", () => {
  it("starts off with no device, and keeps a paired device's key as a hash only (0600)", () => {
    const folder = join(dir(), "devices");
    const book = openBook(folder);
    expect(book.data.setting.enabled).toBe(false);
    const devices = new PairedDevices(book, new Pairing());
    const asked = devices.pairing.ask(devices.pairing.offer().code, "Phone", "10.0.0.2");
    if (!asked.ok) throw new Error("refused");
    expect(devices.check(asked.key).state).toBe("asking");
    expect(devices.confirm(asked.id, true)).toBe(true);
    expect(devices.check(asked.key).state).toBe("paired");
    const text = readFileSync(join(folder, "devices.json"), "utf8");
    expect(text).not.toContain(asked.key.split(".")[2]);
    expect(statSync(join(folder, "devices.json")).mode & 0o777).toBe(0o600);
    // Read again: the same device, the same key accepted.
    const again = new PairedDevices(openBook(folder), new Pairing());
    expect(again.list().map((d) => d.name)).toEqual(["Phone"]);
    expect(again.check(asked.key).state).toBe("paired");
    expect(again.revoke(asked.id)).toBe(true);
    expect(again.check(asked.key).state).toBe("refused");
  });

  it("sets an unreadable file aside and starts off", () => {
    const folder = dir();
    writeFileSync(join(folder, "devices.json"), "{ not json", { mode: 0o600 });
    const lines: string[] = [];
    const book = openBook(folder, (l) => lines.push(l));
    expect(book.data).toEqual({ setting: expect.objectContaining({ enabled: false }), devices: [] });
    expect(book.problem).toMatch(/could not be read/);
    expect(readdirSync(folder).some((f) => f.startsWith("devices.json.unreadable-"))).toBe(true);
  });

  it("refuses a setting that is not one, in words", () => {
    expect(() => readSetting({ enabled: "yes" })).toThrow(/"enabled" must be true or false/);
    expect(() => readSetting({ enabled: true, port: 70000 })).toThrow(/port number/);
    expect(() => readSetting({ enabled: true, certificate: { kind: "supplied", certPath: "/c" } })).toThrow(/paths of its certificate and its key/);
    expect(() => readSetting({ enabled: true, publicHost: "evil host" })).toThrow(/host name/);
    expect(readSetting({ enabled: true, address: "10.0.0.1", port: 0, publicHost: "Machine.ts.net:443" })).toEqual({
      enabled: true,
      address: "10.0.0.1",
      port: 0,
      certificate: { kind: "own" },
      publicHost: "machine.ts.net:443",
    });
  });

  it("keeps a push subscription only when it is one", () => {
    expect(readPushSubscription({ endpoint: "https://push.example/x", keys: { p256dh: "p", auth: "a" } })).toEqual({ endpoint: "https://push.example/x", expirationTime: null, keys: { p256dh: "p", auth: "a" } });
    expect(readPushSubscription({ endpoint: "http://push.example/x", keys: { p256dh: "p", auth: "a" } })).toBeUndefined();
    expect(readPushSubscription({ endpoint: "https://push.example/x" })).toBeUndefined();
  });
});
