// servers:import takes whatever a page sends: any value is refused in words (an envelope the page
// can show) or, only with the plan's own fingerprint and offered names, written. Nothing else
// touches the companion's config.
import fc from "fast-check";
import { cp, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArgumentError, HandlerError } from "../../src/main/rpc/envelope";
import { createImportHandlers } from "../../src/main/client-configs/import-handlers";

const FIXTURE = fileURLToPath(new URL("../fixtures/clients/home", import.meta.url));
let home: string;
let configPath: string;
let handlers: ReturnType<typeof createImportHandlers>;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "import-fuzz-"));
  await cp(FIXTURE, home, { recursive: true });
  configPath = join(home, ".config", "toolnexus-companion", "mcp.json");
  handlers = createImportHandlers({ configPath, servers: () => [], machine: () => ({ platform: "linux", home, env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config") } }) });
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("servers:import with hostile arguments", () => {
  it("refuses every argument that is not the plan's fingerprint with offered names, and writes nothing", { timeout: 20_000 }, async () => {
    const offered = ["github", "github@cursor", "sentry", "picker", "x".repeat(300), "__proto__", "constructor"];
    const arg = fc.oneof(
      fc.anything(),
      fc.record({ pick: fc.oneof(fc.array(fc.constantFrom(...offered)), fc.anything()), fingerprint: fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string(), fc.anything()) }, { requiredKeys: [] }),
    );
    await fc.assert(
      fc.asyncProperty(arg, async (value) => {
        try {
          await handlers["servers:import"](value);
          throw new Error(`accepted ${JSON.stringify(value)}`);
        } catch (error) {
          expect(error instanceof ArgumentError || error instanceof HandlerError, String(error)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
    await expect(stat(configPath)).rejects.toMatchObject({ code: "ENOENT" });
  });
});
