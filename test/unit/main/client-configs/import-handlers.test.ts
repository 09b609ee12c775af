// servers:importPlan and servers:import as main serves them: the plan from a temporary copy of the
// fixture HOME, the picked write, and every refusal (stale plan, a name not offered, bad arguments).
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorEnvelope } from "../../../../src/main/rpc/envelope";
import { createImportHandlers } from "../../../../src/main/client-configs/import-handlers";
import { parseConfigText } from "../../../../src/main/base/config-text";

const FIXTURE = fileURLToPath(new URL("../../../fixtures/clients/home", import.meta.url));
let home: string;
let configPath: string;
let handlers: ReturnType<typeof createImportHandlers>;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "import-handlers-"));
  await cp(FIXTURE, home, { recursive: true });
  configPath = join(home, ".config", "toolnexus-companion", "mcp.json");
  handlers = createImportHandlers({
    configPath,
    servers: () => [],
    machine: () => ({ platform: "linux", home, env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config") } }),
  });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    return errorEnvelope(error);
  }
  throw new Error("expected a refusal");
};

describe("servers:importPlan / servers:import", () => {
  it("plans without writing, then writes exactly the picked servers", async () => {
    const plan = await handlers["servers:importPlan"](undefined);
    await expect(stat(configPath)).rejects.toMatchObject({ code: "ENOENT" });
    const clients = new Set(plan.groups.map((g) => g.client));
    expect(clients).toContain("claude-desktop");
    expect(clients).toContain("cursor");
    const result = await handlers["servers:import"]({ pick: ["github", "github@cursor"], fingerprint: plan.fingerprint });
    expect(result.added).toEqual(["github", "github@cursor"]);
    const value = parseConfigText(await readFile(configPath, "utf8")) as { mcpServers: Record<string, { importedFrom: Array<{ client: string }> }> };
    expect(Object.keys(value.mcpServers)).toEqual(["github", "github@cursor"]);
    expect(value.mcpServers["github@cursor"].importedFrom[0].client).toBe("cursor");
  });

  it("refuses a stale fingerprint (the config changed since the list was shown) and writes nothing", async () => {
    const plan = await handlers["servers:importPlan"](undefined);
    await mkdir(join(home, ".config", "toolnexus-companion"), { recursive: true });
    await writeFile(configPath, '{ "mcpServers": { "mine": { "command": "x" } } }\n');
    expect(await refusal(handlers["servers:import"]({ pick: ["github"], fingerprint: plan.fingerprint }))).toMatchObject({ error: { code: "plan-changed" } });
    expect(await readFile(configPath, "utf8")).toBe('{ "mcpServers": { "mine": { "command": "x" } } }\n');
  });

  it("refuses names not offered as new (a skipped one, a duplicate's, an invented one) and malformed arguments", async () => {
    const plan = await handlers["servers:importPlan"](undefined);
    for (const pick of [["picker"], ["nope"]]) {
      expect(await refusal(handlers["servers:import"]({ pick, fingerprint: plan.fingerprint }))).toMatchObject({ error: { code: "invalid-argument" } });
    }
    for (const bad of [undefined, {}, { pick: "github", fingerprint: plan.fingerprint }, { pick: [1], fingerprint: plan.fingerprint }, { pick: ["x".repeat(201)], fingerprint: plan.fingerprint }, { pick: [], fingerprint: "" }]) {
      expect(await refusal(handlers["servers:import"](bad))).toMatchObject({ error: { code: "invalid-argument" } });
    }
    expect(await refusal(handlers["servers:importPlan"]({ x: 1 }))).toMatchObject({ error: { code: "invalid-argument" } });
    await expect(stat(configPath)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("two imports of one plan at once: the first writes, the second finds the file changed and writes nothing", async () => {
    const plan = await handlers["servers:importPlan"](undefined);
    const results = await Promise.allSettled([
      handlers["servers:import"]({ pick: ["github"], fingerprint: plan.fingerprint }),
      handlers["servers:import"]({ pick: ["github@cursor"], fingerprint: plan.fingerprint }),
    ]);
    expect(results[0]).toMatchObject({ status: "fulfilled", value: { added: ["github"] } });
    expect(results[1].status).toBe("rejected");
    expect(errorEnvelope((results[1] as PromiseRejectedResult).reason)).toMatchObject({ error: { code: "plan-changed" } });
    const value = parseConfigText(await readFile(configPath, "utf8")) as { mcpServers: Record<string, unknown> };
    expect(Object.keys(value.mcpServers)).toEqual(["github"]);
  });

  it("without a config file of its own there is nothing to import into", async () => {
    const bare = createImportHandlers({ servers: () => [] });
    expect(await refusal(bare["servers:importPlan"](undefined))).toMatchObject({ error: { code: "unsupported" } });
  });
});
