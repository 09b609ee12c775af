// Without a system keychain (a headless box, SSH: where browser mode is for) the gateway token is
// kept in a file only the user can read, so agents configured once keep working after a restart,
// and `toolnexus-companion token` prints it. A file others can read is refused with the chmod.
import { chmod, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServe, cli, headlessEnv, startServe } from "./serve-harness";

let build: ReturnType<typeof buildServe>;
beforeAll(() => {
  build = buildServe("serve-token-file");
}, 60_000);
afterAll(() => build?.remove());

describe("the gateway token without a keychain", () => {
  it("is the same after a restart, printed by `token`, kept 0600 in a 0700 folder; a 0644 file is refused", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tnc-token-file-"));
    const config = join(dir, "mcp.json");
    await writeFile(config, "{}");
    const env = headlessEnv(dir);
    const file = join(dir, "state", "gateway-token");
    try {
      const first = await startServe(build.bundle, config, env);
      await first.stop();
      expect(first.stderr()).toContain("no system keychain is available");
      const second = await startServe(build.bundle, config, env);
      await second.stop();
      expect(second.token).toBe(first.token);

      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(join(dir, "state"))).mode & 0o777).toBe(0o700);

      const printed = await cli(["token"], env);
      expect(printed.stderr).toBe("");
      expect(printed.code).toBe(0);
      expect(printed.stdout.trim()).toBe(first.token);

      await chmod(file, 0o644);
      const refused = await cli(["token"], env);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toContain(`can be read by other users (mode 0644); run: chmod 600 ${file}`);
      // The companion does not use that file either: it says why and runs on a session-only token.
      const third = await startServe(build.bundle, config, env);
      await third.stop();
      expect(third.token).not.toBe(first.token);
      expect(third.stderr()).toContain(`chmod 600 ${file}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
