// Secrets in a real keychain (gnome-keyring under dbus-run-session; scripts/test.sh sets it up),
// the CLI that writes them, the gateway token kept there, and the in-memory fallback when no
// Secret Service answers (in a child process whose D-Bus address points nowhere).
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import keytar from "keytar";
import { gatewayToken, GATEWAY_TOKEN_SECRET, openSecretStore, rotateGatewayToken, SECRET_SERVICE } from "../../src/main/secrets";
import { fixture, repoRoot } from "../fixtures";
import { createCore } from "../../src/main/app/core";
import { browserPlatform } from "../../src/main/app/serve";

const bin = join(repoRoot, "bin", "toolnexus-companion");
const hasBus = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
if (!hasBus && process.env.TNC_REQUIRE_KEYCHAIN) {
  // npm test promises a real keychain; without one the run must fail, not quietly skip.
  throw new Error("secrets.test.ts: no D-Bus session (DBUS_SESSION_BUS_ADDRESS unset) although npm test requires the keychain tests; install gnome-keyring and dbus-x11.");
}
if (!hasBus) {
  console.warn(
    "secrets.test.ts: keychain tests skipped — DBUS_SESSION_BUS_ADDRESS is unset, so there is no Secret Service to test against. " +
      "Run them with `npm test` (scripts/test.sh starts dbus-run-session with an unlocked gnome-keyring).",
  );
}
const run = `${process.pid}-${Date.now()}`;
const created: string[] = [];
const name = (base: string) => {
  const n = `test-${base}-${run}`;
  created.push(n);
  return n;
};

function runNode(args: string[], options: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...options.env })) if (v !== undefined) env[k] = v;
    const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += String(c)));
    child.stderr.on("data", (c) => (stderr += String(c)));
    child.stdin.end(options.input ?? "");
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

afterAll(async () => {
  if (!hasBus) return;
  for (const n of created) await keytar.deletePassword(SECRET_SERVICE, n).catch(() => false);
});

describe.skipIf(!hasBus)("SecretStore on a real keychain", () => {
  it("opens the keychain and round-trips set, get, list and delete", async () => {
    const store = await openSecretStore();
    expect(store.available).toBe(true);
    expect(store.detail).toMatch(/system keychain/);
    const key = name("roundtrip");
    await store.set(key, "s3cret value");
    expect(await store.get(key)).toBe("s3cret value");
    // It really is in the keychain, under the companion's service.
    expect(await keytar.getPassword(SECRET_SERVICE, key)).toBe("s3cret value");
    expect(await store.list()).toContain(key);
    expect(await store.delete(key)).toBe(true);
    expect(await store.get(key)).toBeUndefined();
    expect(await store.list()).not.toContain(key);
    expect(await store.delete(key)).toBe(false);
  });

  it("refuses names that could not be written in ${secret:NAME}", async () => {
    const store = await openSecretStore();
    await expect(store.set("has space", "x")).rejects.toThrow(/not a valid secret name/);
    await expect(store.set("a}b", "x")).rejects.toThrow(/not a valid secret name/);
  });

  it("makes the gateway token once, keeps it across opens, and rotates it", async () => {
    const saved = await keytar.getPassword(SECRET_SERVICE, GATEWAY_TOKEN_SECRET);
    try {
      await keytar.deletePassword(SECRET_SERVICE, GATEWAY_TOKEN_SECRET);
      const first = await gatewayToken(await openSecretStore());
      expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await gatewayToken(await openSecretStore())).toBe(first);
      const rotated = await rotateGatewayToken(await openSecretStore());
      expect(rotated).not.toBe(first);
      expect(await gatewayToken(await openSecretStore())).toBe(rotated);
      // The CLI reads the same token from the keychain.
      const printed = await runNode([bin, "token"], { env: { TOOLNEXUS_COMPANION_TOKEN: undefined } });
      expect(printed.status).toBe(0);
      expect(printed.stdout.trim()).toBe(rotated);
    } finally {
      if (saved) await keytar.setPassword(SECRET_SERVICE, GATEWAY_TOKEN_SECRET, saved);
      else await keytar.deletePassword(SECRET_SERVICE, GATEWAY_TOKEN_SECRET);
    }
  });

  it("`secret set NAME` reads the value from stdin; list shows names only; delete removes it", async () => {
    const key = name("cli");
    const set = await runNode([bin, "secret", "set", key], { input: "from-stdin-value\n" });
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout).toBe("");
    expect(set.stderr).not.toContain("from-stdin-value");
    expect(await keytar.getPassword(SECRET_SERVICE, key)).toBe("from-stdin-value"); // trailing newline dropped

    const list = await runNode([bin, "secret", "list"]);
    expect(list.status).toBe(0);
    expect(list.stdout.split("\n")).toContain(key);
    expect(list.stdout).not.toContain("from-stdin-value");
    expect(list.stdout.split("\n")).not.toContain(GATEWAY_TOKEN_SECRET);

    const del = await runNode([bin, "secret", "delete", key]);
    expect(del.status).toBe(0);
    expect(await keytar.getPassword(SECRET_SERVICE, key)).toBeNull();
    expect((await runNode([bin, "secret", "delete", key])).status).toBe(1);
  });

  it("`secret set` refuses an empty value, a bad name, and the gateway token's name", async () => {
    expect((await runNode([bin, "secret", "set", name("empty")], { input: "" })).status).toBe(1);
    expect((await runNode([bin, "secret", "set", "bad name"], { input: "x" })).status).toBe(2);
    const token = await runNode([bin, "secret", "set", GATEWAY_TOKEN_SECRET], { input: "x" });
    expect(token.status).toBe(2);
    expect(token.stderr).toMatch(/rotate it/);
  });
});

describe("SecretStore without a keychain", () => {
  it("falls back to memory with a clear detail, and writes nothing to disk", async () => {
    const home = mkdtempSync(join(tmpdir(), "tnc-nokeychain-"));
    const script = join(home, "probe.mts");
    writeFileSync(
      script,
      `import { openSecretStore } from ${JSON.stringify(join(repoRoot, "src/main/secrets/index.ts"))};
const store = await openSecretStore();
await store.set("api-key", "PLAINTEXT-CANARY-123");
console.log(JSON.stringify({ available: store.available, detail: store.detail, value: await store.get("api-key"), list: await store.list() }));`,
    );
    const out = await runNode(["--import", "tsx", script], {
      env: { DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus", HOME: home, XDG_DATA_HOME: join(home, "data"), XDG_CONFIG_HOME: join(home, "config") },
    });
    expect(out.status, out.stderr).toBe(0);
    const result = JSON.parse(out.stdout.trim()) as { available: boolean; detail: string; value: string; list: string[] };
    expect(result.available).toBe(false);
    expect(result.detail).toMatch(/no system keychain is available/);
    expect(result.detail).toMatch(/in memory for this session only/);
    expect(result.value).toBe("PLAINTEXT-CANARY-123");
    expect(result.list).toEqual(["api-key"]);
    // Nothing under the (temporary) home holds the value.
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => {
        const p = join(dir, f);
        return statSync(p).isDirectory() ? walk(p) : [p];
      });
    for (const file of walk(home)) {
      if (file === script) continue;
      expect(readFileSync(file, "utf8")).not.toContain("PLAINTEXT-CANARY-123");
    }
  });

  it("falls back when keytar itself cannot load or never answers", async () => {
    const broken = await openSecretStore({
      loadKeytar: async () => {
        throw new Error("keytar.node was compiled against a different Node.js version");
      },
    });
    expect(broken.available).toBe(false);
    expect(broken.detail).toMatch(/different Node\.js version/);
    const hanging = await openSecretStore({
      probeTimeoutMs: 100,
      loadKeytar: async () => ({
        getPassword: async () => null,
        setPassword: async () => {},
        deletePassword: async () => false,
        findCredentials: () => new Promise(() => {}),
      }),
    });
    expect(hanging.available).toBe(false);
    expect(hanging.detail).toMatch(/did not answer within 100 ms/);
  });

  it("the CLI refuses to store a secret it would only forget", async () => {
    const out = await runNode([bin, "secret", "set", "api-key"], { env: { DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus" }, input: "value" });
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/cannot store secrets: no system keychain is available/);
  });
});

describe.skipIf(!hasBus)("keychain secrets stay with their server", () => {
  it("a keychain secret sent as a header and echoed back by the server is redacted; so is one set in Settings", async () => {
    const key = name("echoed");
    const value = `kc-secret-${run}-Q7w8e9r0`;
    // Already in the keychain before the app starts: it is registered when the connection reads it.
    await keytar.setPassword(SECRET_SERVICE, key, value);
    const echo = spawn(process.execPath, [fixture("echo-headers"), "--mode", "status:500"], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        echo.stdout!.on("data", (chunk) => {
          out += String(chunk);
          const match = /^LISTENING (\S+)$/m.exec(out);
          if (match) resolve(match[1]);
        });
        echo.once("exit", () => reject(new Error("echo-headers exited")));
      });
      const lines: string[] = [];
      const core = await createCore({
        config: { mcpServers: { remote: { url, headers: { Authorization: `Bearer \${secret:${key}}` }, type: "streamable-http", protocol: "legacy" } } },
        platform: browserPlatform,
        secrets: await openSecretStore(),
        log: (line) => lines.push(line),
      });
      try {
        const [view] = core.servers();
        expect(view.state).toBe("failed");
        expect(view.error).toContain("HTTP 500");
        expect(view.error).toContain("authorization: Bearer [redacted]");
        const later = `set-in-settings-${run}-Z1x2c3`;
        await core.handlers["secrets:set"]({ name: name("settings"), value: later });
        core.log(`an error quoting ${later}`);
        const shown = JSON.stringify([core.servers(), lines]);
        expect(shown).not.toContain(value);
        expect(shown).not.toContain(later);
        expect(lines).toContain("an error quoting [redacted]");
      } finally {
        await core.close();
      }
    } finally {
      echo.kill("SIGKILL");
    }
  });
});
