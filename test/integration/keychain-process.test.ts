// keytar runs in a helper process (src/main/secrets/keychain-process.ts). Its native code is a
// peer that can die or stall: stand-in modules (test/fixtures/keytar-standins) segfault, never
// answer, or spin, and the companion's process must only see a clear error. The last test is the
// real case behind it: gnome-keyring with the companion's secrets in a locked keyring, where
// keytar's findCredentials segfaults; the CLI (and the companion) used to die with it.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { KEYCHAIN_HELPER_NAME } from "../../src/main/secrets/keychain-child";
import { keychainProcess, type KeychainProcess } from "../../src/main/secrets/keychain-process";
import { openSecretStore } from "../../src/main/secrets";
import { isAlive, repoRoot } from "../fixtures";
import { becomesTrue } from "../helpers/poll";

const standin = (name: string) => join(repoRoot, "test", "fixtures", "keytar-standins", `${name}.cjs`);
const bin = join(repoRoot, "bin", "toolnexus-companion");

/** The helpers this test process started (the keychain helper's name is in its argv). */
function helpers(): number[] {
  const out = spawnSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" }).stdout;
  return out
    .split("\n")
    .filter((line) => line.includes(KEYCHAIN_HELPER_NAME))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}


const opened: KeychainProcess[] = [];
const open = (options: Parameters<typeof keychainProcess>[0]) => {
  const k = keychainProcess(options);
  opened.push(k);
  return k;
};
afterEach(() => {
  for (const k of opened.splice(0)) k.close();
});

describe("the keychain helper", () => {
  it("a helper that segfaults fails only the call it ran; the next call gets a new helper", async () => {
    const keychain = open({ modulePath: standin("crash") });
    await expect(keychain.findCredentials("svc")).rejects.toThrow(/keychain helper stopped during findCredentials \(killed by SIGSEGV\)/);
    await keychain.setPassword("svc", "a", "value-1");
    expect(await keychain.getPassword("svc", "a")).toBe("value-1");
    // openSecretStore's probe meets the same crash: a memory store that says why, and we live on.
    const store = await openSecretStore({ loadKeytar: async () => open({ modulePath: standin("crash") }) });
    expect(store.available).toBe(false);
    expect(store.detail).toMatch(/killed by SIGSEGV/);
  });

  it("a call that never answers is ended at its deadline, its helper killed, and calls fail fast for a while", async () => {
    const keychain = open({ modulePath: standin("stall"), callTimeoutMs: 300 });
    const started = Date.now();
    await expect(keychain.getPassword("svc", "a")).rejects.toThrow(/did not answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await becomesTrue(() => helpers().length === 0, 2_000)).toBe(true);
    const again = Date.now();
    await expect(keychain.findCredentials("svc")).rejects.toThrow(/did not answer within 300 ms/);
    expect(Date.now() - again).toBeLessThan(100);
  });

  it("a helper whose own event loop is stuck in native code is killed too", async () => {
    const keychain = open({ modulePath: standin("stall"), callTimeoutMs: 300 });
    await expect(keychain.getPassword("svc", "spin")).rejects.toThrow(/did not answer within 300 ms/);
    expect(await becomesTrue(() => helpers().length === 0, 2_000)).toBe(true);
  });

  it("a reply past 16 MiB is not read: the helper is killed and the call fails with the bound", async () => {
    const keychain = open({ modulePath: standin("stall") });
    await expect(keychain.getPassword("svc", "huge")).rejects.toThrow(/keychain helper stopped during getPassword \(sent a message over 16777216 bytes without ending it\)/);
    expect(await becomesTrue(() => helpers().length === 0, 2_000)).toBe(true);
  });

  it("runs one call at a time (concurrent libsecret calls can abort keytar), in order", async () => {
    const keychain = open({ modulePath: standin("count") });
    const calls = Array.from({ length: 20 }, (_, i) => (i % 2 ? keychain.setPassword("svc", `a${i}`, "v") : keychain.getPassword("svc", `a${i}`)));
    const results = await Promise.all(calls);
    expect(results.filter((r) => r === null)).toHaveLength(10);
    expect(await keychain.findCredentials("svc")).toEqual([{ account: "most", password: "1" }]);
  });

  it("an idle helper is let go, and the next call starts another", async () => {
    const keychain = open({ modulePath: standin("count"), idleMs: 150 });
    const first = Number(await keychain.getPassword("svc", "pid"));
    expect(isAlive(first)).toBe(true);
    expect(await becomesTrue(() => !isAlive(first), 3_000)).toBe(true);
    const second = Number(await keychain.getPassword("svc", "pid"));
    expect(second).not.toBe(first);
  });

  it("does not keep a program alive once its calls are answered (the CLI exits at once)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tnc-keychain-"));
    const script = join(dir, "one-call.mts");
    writeFileSync(
      script,
      `import { keychainProcess } from ${JSON.stringify(join(repoRoot, "src/main/secrets/keychain-process.ts"))};
const keychain = keychainProcess({ modulePath: ${JSON.stringify(standin("count"))} });
console.log(await keychain.getPassword("svc", "pid"));`,
    );
    const started = Date.now();
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(code, stderr).toBe(0);
    // Well before KEYCHAIN_IDLE_MS (15 s): the waiting helper does not hold the event loop.
    expect(Date.now() - started).toBeLessThan(10_000);
    const helperPid = Number(stdout.trim());
    expect(await becomesTrue(() => !isAlive(helperPid), 3_000)).toBe(true);
  });
});

const hasKeyring = spawnSync("sh", ["-c", "command -v dbus-run-session && command -v gnome-keyring-daemon"]).status === 0;
if (!hasKeyring && process.env.TNC_REQUIRE_KEYCHAIN) {
  throw new Error("keychain-process.test.ts: dbus-run-session or gnome-keyring-daemon missing although npm test requires the keychain tests.");
}

describe.skipIf(!hasKeyring)("a locked keyring (gnome-keyring in a D-Bus session of its own)", () => {
  it("keytar segfaults on it; the CLI says the keychain is unavailable instead of dying", { timeout: 120_000 }, () => {
    const home = mkdtempSync(join(tmpdir(), "tnc-locked-keyring-"));
    const env = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, "data"), XDG_CONFIG_HOME: join(home, "config"), TOOLNEXUS_COMPANION_TOKEN: "" };
    // A keyring made with one password and holding a companion secret…
    const stored = execFileSync(
      "dbus-run-session",
      ["--", "sh", "-c", `printf %s first-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null; "${process.execPath}" -e 'require("keytar").setPassword("toolnexus-companion", "api-key", "kept-value-123").then(() => console.log("stored"))'`],
      { cwd: repoRoot, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 },
    );
    expect(stored.trim()).toBe("stored");
    // …opened at the next login with another: it stays locked, and no prompt can be shown.
    const err = spawnSync("dbus-run-session", ["--", "sh", "-c", `printf %s second-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null; "${bin}" secret list`], {
      cwd: repoRoot,
      env,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(err.status).toBe(1);
    expect(err.signal).toBeNull();
    expect(err.stderr).toMatch(/cannot store secrets: no system keychain is available \(the keychain helper stopped during findCredentials \(killed by SIGSEGV\)/);
    expect(err.stderr).not.toContain("kept-value-123");
  });
});
