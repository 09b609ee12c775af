// servers:save takes whatever a page sends. Any value either comes back refused (field errors, or
// an argument error the page can show) with the file byte for byte as it was, or is written as a
// config entry that parses back to a runnable server of strings only. Nothing else is written.
import fc from "fast-check";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArgumentError } from "../../src/main/rpc/envelope";
import { createServerManagementHandlers } from "../../src/main/mcp/server-handlers";
import { parseConfig } from "../../src/main/mcp/config/parse";
import { parseConfigText } from "../../src/main/base/config-text";

const FILE = '{\n  // kept\n  "mcpServers": { "a": { "command": "node" } }\n}\n';
let dir: string;
let configPath: string;
let handlers: ReturnType<typeof createServerManagementHandlers>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "server-form-fuzz-"));
  configPath = join(dir, "mcp.json");
  handlers = createServerManagementHandlers({ configPath, servers: () => [], keychain: { set: async () => {} } });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("", " x ", "__proto__", "a\nb", "https://e.example/mcp", "/abs/dir", "${X}", "node"));
const anyValue = fc.oneof(text, fc.integer(), fc.constant(null), fc.boolean(), fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 }));
const pair = fc.record({ name: fc.oneof(text, anyValue), value: fc.oneof(text, anyValue), kept: fc.boolean(), keychain: fc.boolean() }, { requiredKeys: [] });
const form = fc.record(
  {
    name: fc.oneof(text, anyValue),
    kind: fc.oneof(fc.constantFrom("local", "remote"), anyValue),
    command: fc.oneof(text, anyValue),
    args: fc.oneof(fc.array(fc.oneof(text, anyValue), { maxLength: 4 }), anyValue),
    env: fc.oneof(fc.array(pair, { maxLength: 3 }), anyValue),
    cwd: fc.oneof(text, anyValue),
    url: fc.oneof(text, anyValue),
    headers: fc.oneof(fc.array(pair, { maxLength: 3 }), anyValue),
  },
  { requiredKeys: [] },
);

// Near-valid values, so the property reaches the write path as well as the refusals.
const near = fc.record({
  name: fc.constantFrom("b", "c d", "x.y", "a", "__proto__", "constructor"),
  kind: fc.constantFrom("local", "remote"),
  command: fc.constantFrom("node", "npx", " node", "no\u0000de"),
  args: fc.array(text, { maxLength: 4 }),
  env: fc.array(fc.record({ name: fc.constantFrom("A", "B_1", "bad-name", "", "__proto__"), value: text, kept: fc.boolean() }), { maxLength: 3 }),
  cwd: fc.constantFrom("", "/srv", "rel", "${HOME}/x"),
  url: fc.constantFrom("https://e.example/mcp", "http://127.0.0.1:1/mcp", "ftp://x", "nope", "https://${HOST}/mcp"),
  headers: fc.array(fc.record({ name: fc.constantFrom("Authorization", "X-A", "bad name", "__proto__"), value: text, keychain: fc.boolean(), kept: fc.boolean() }), { maxLength: 3 }),
});

describe("servers:save with hostile values", () => {
  it("refuses with the file unchanged, or writes one runnable entry and keeps the comment", { timeout: 60_000 }, async () => {
    let saved = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof({ arbitrary: near, weight: 3 }, { arbitrary: form, weight: 1 }), fc.option(fc.constantFrom("a", "nope", "__proto__"), { nil: undefined }), async (value, original) => {
        await writeFile(configPath, FILE);
        let result;
        try {
          result = await handlers["servers:save"]({ ...(original !== undefined ? { original } : {}), value });
        } catch (error) {
          expect(error).toBeInstanceOf(Error);
          expect((error as Error).message).toMatch(/\w/);
          expect(error instanceof ArgumentError || (error as { code?: string }).code !== undefined).toBe(true);
          expect(await readFile(configPath, "utf8")).toBe(FILE);
          return;
        }
        const after = await readFile(configPath, "utf8");
        if (!result.saved) {
          expect(Object.keys(result.fieldErrors).length).toBeGreaterThan(0);
          expect(after).toBe(FILE);
          return;
        }
        saved++;
        expect(after).toContain("// kept");
        const parsed = parseConfig(parseConfigText(after), { expand: false });
        expect(parsed.invalid).toEqual([]);
        expect(parsed.servers.map((s) => s.name)).toContain(original ?? (value as { name: string }).name);
      }),
      { numRuns: 300 },
    );
    // The property reached the write path, not only refusals.
    expect(saved).toBeGreaterThan(0);
  });
});
