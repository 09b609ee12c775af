// The desktop keychain helper: keychain-entry.ts, bundled as build-electron.mjs bundles it, run in
// a real child process. Electron's utilityProcess is not available here, so `fork` is played by
// child_process.fork with a process.parentPort made of Node's IPC channel (the same message shape:
// the entry reads `event.data`, replies with postMessage). What runs is the real entry and the
// real launcher; only the transport under parentPort differs.
import { fork } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { keychainProcess, type KeychainProcess } from "../../../src/main/secrets/keychain-process";
import { isAlive, repoRoot } from "../../fixtures";
import { becomesTrue } from "../../helpers/poll";

const dir = mkdtempSync(join(tmpdir(), "tnc-keychain-entry-"));
const entry = join(dir, "keychain-helper.cjs");
const shim = join(dir, "parent-port.cjs");
const children: number[] = [];

vi.mock("electron", () => ({
  utilityProcess: {
    fork(modulePath: string, args: string[]) {
      const child = fork(modulePath, args, { execArgv: ["--require", shim], stdio: "ignore" });
      children.push(child.pid!);
      const proc = new EventEmitter() as EventEmitter & { postMessage(m: unknown): void; kill(): boolean };
      child.on("message", (m) => proc.emit("message", m));
      child.on("exit", (code, signal) => proc.emit("exit", code ?? signal));
      proc.postMessage = (m) => void child.send(m as object);
      proc.kill = () => child.kill("SIGKILL");
      return proc;
    },
  },
}));

const { utilityHelperLauncher } = await import("../../../src/main/desktop/keychain-helper");

beforeAll(async () => {
  await build({ entryPoints: [join(repoRoot, "src/main/desktop/keychain-entry.ts")], bundle: true, platform: "node", format: "cjs", outfile: entry, logLevel: "warning", external: ["electron"] });
  writeFileSync(
    shim,
    `process.parentPort = {
  on(event, handler) { process.on("message", (data) => handler({ data, ports: [] })); },
  postMessage(data) { process.send(data); },
};`,
  );
});

const standin = (name: string) => join(repoRoot, "test", "fixtures", "keytar-standins", `${name}.cjs`);
const opened: KeychainProcess[] = [];
afterEach(() => {
  for (const k of opened.splice(0)) k.close();
});


describe("the desktop keychain helper (utility process entry)", () => {
  it("answers calls one at a time, and exits when let go", async () => {
    const keychain = keychainProcess({ launch: utilityHelperLauncher(entry), modulePath: standin("count"), idleMs: 150 });
    opened.push(keychain);
    const results = await Promise.all([keychain.getPassword("svc", "a"), keychain.setPassword("svc", "b", "v"), keychain.deletePassword("svc", "c")]);
    expect(results).toEqual([null, undefined, false]);
    expect(await keychain.findCredentials("svc")).toEqual([{ account: "most", password: "1" }]);
    const pid = children.at(-1)!;
    expect(await becomesTrue(() => !isAlive(pid), 3_000)).toBe(true);
  });

  it("a helper that crashes fails the call with a reason; the next call gets a new helper", async () => {
    const keychain = keychainProcess({ launch: utilityHelperLauncher(entry), modulePath: standin("crash") });
    opened.push(keychain);
    await expect(keychain.findCredentials("svc")).rejects.toThrow(/keychain helper stopped during findCredentials \(exited with code SIGSEGV\)/);
    await keychain.setPassword("svc", "a", "v1");
    expect(await keychain.getPassword("svc", "a")).toBe("v1");
  });

  it("a keytar that cannot load is an error on each call, not a crash", async () => {
    const keychain = keychainProcess({ launch: utilityHelperLauncher(entry), modulePath: join(dir, "missing-keytar.cjs") });
    opened.push(keychain);
    await expect(keychain.getPassword("svc", "a")).rejects.toThrow(/keytar could not be loaded: Cannot find module/);
  });
});
