// roots/list from a server always gets an answer, and one server session shared by several agents
// never shows one agent's roots during another's call. roots-cache.mjs caches roots per session
// and re-asks only on notifications/roots/list_changed, as server-filesystem does (the interop
// suite runs the real one).
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/main/mcp/config/parse";
import { fixtureCommand } from "../fixtures";
import { startCompanion, type Companion } from "./gateway-harness";
import { textOfV1, v1Agent } from "./v1-agent";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

async function companionWith(entry: Record<string, unknown> = {}): Promise<Companion> {
  const companion = await startCompanion({ config: { mcpServers: { files: { ...fixtureCommand("roots-cache"), ...entry } } } });
  cleanup.push(() => companion.close());
  return companion;
}

async function allowed(agent: Awaited<ReturnType<typeof v1Agent>>, waitMs = 0): Promise<string[]> {
  const text = textOfV1(await agent.callTool({ name: "files_allowed", arguments: { waitMs } }));
  if (!text.startsWith("[")) throw new Error(text);
  return JSON.parse(text) as string[];
}

async function asks(agent: Awaited<ReturnType<typeof v1Agent>>): Promise<{ asked: number; errors: string[] }> {
  return JSON.parse(textOfV1(await agent.callTool({ name: "files_roots_asks", arguments: {} })));
}

describe("roots/list", () => {
  it("is answered with an empty list when nobody set roots, never -32601", async () => {
    const companion = await companionWith();
    const agent = await v1Agent(companion, "plain-agent");
    cleanup.push(() => agent.close());
    expect(await allowed(agent)).toEqual([]);
    const seen = await asks(agent);
    expect(seen.asked).toBeGreaterThanOrEqual(1);
    expect(seen.errors).toEqual([]);
  });

  it("gets the roots the person set for the server when the calling agent has none", async () => {
    const companion = await companionWith({ roots: ["/srv/projects/site", "/home/ada/notes/"] });
    const agent = await v1Agent(companion, "plain-agent");
    cleanup.push(() => agent.close());
    expect(await allowed(agent)).toEqual(["file:///srv/projects/site", "file:///home/ada/notes"]);
  });

  it("shows each of two agents only its own roots, one after the other and at once", async () => {
    const companion = await companionWith({ roots: ["/srv/config-root"] });
    const a = await v1Agent(companion, "claude-code", { roots: ["file:///work/a"] });
    const b = await v1Agent(companion, "cursor", { roots: ["file:///work/b"] });
    const plain = await v1Agent(companion, "plain-agent");
    cleanup.push(() => a.close(), () => b.close(), () => plain.close());

    expect(await allowed(a)).toEqual(["file:///work/a"]);
    expect(await allowed(b)).toEqual(["file:///work/b"]);
    expect(await allowed(plain)).toEqual(["file:///srv/config-root"]);
    expect(await allowed(a)).toEqual(["file:///work/a"]);

    // At once: the second waits until the server holds its roots; neither sees the other's.
    const [fromA, fromB] = await Promise.all([allowed(a, 300), allowed(b, 0)]);
    expect(fromA).toEqual(["file:///work/a"]);
    expect(fromB).toEqual(["file:///work/b"]);
    expect((await asks(plain)).errors).toEqual([]);
  });
});

describe("roots/list, switched back and forth", () => {
  it("gives every call its own roots, however fast the calls follow each other (the raw stdio path writes a call at once)", async () => {
    const companion = await companionWith({ roots: ["/srv/config-root"] });
    const b = await v1Agent(companion, "cursor", { roots: ["file:///work/b"] });
    const plain = await v1Agent(companion, "plain-agent");
    cleanup.push(() => b.close(), () => plain.close());
    const seen: string[] = [];
    for (let i = 0; i < 15; i++) {
      seen.push(`b:${(await allowed(b)).join(",")}`, `plain:${(await allowed(plain)).join(",")}`);
    }
    expect(seen.filter((s) => s !== "b:file:///work/b" && s !== "plain:file:///srv/config-root")).toEqual([]);
  }, 60_000);
});

describe("a server slow to re-fetch its roots", () => {
  it("is waited for, so a call never runs under the previous agent's roots (a loaded machine)", async () => {
    // 1.5 s per re-fetch: longer than a call used to wait for it (1 s), as on a busy CI machine.
    const companion = await companionWith({ roots: ["/srv/config-root"], env: { ROOTS_REFETCH_DELAY_MS: "1500" } });
    const a = await v1Agent(companion, "claude-code", { roots: ["file:///work/a"] });
    const plain = await v1Agent(companion, "plain-agent");
    cleanup.push(() => a.close(), () => plain.close());
    expect(await allowed(a)).toEqual(["file:///work/a"]);
    expect(await allowed(plain)).toEqual(["file:///srv/config-root"]);
    expect(await allowed(a)).toEqual(["file:///work/a"]);
  }, 30_000);
});

describe("the roots field of a config entry", () => {
  it("takes absolute folder paths and refuses anything else with a clear error", () => {
    const ok = parseConfig({ mcpServers: { s: { command: "x", roots: ["/a/b"] } } });
    expect(ok.servers[0].roots).toEqual([{ uri: "file:///a/b", name: "b" }]);
    const relative = parseConfig({ mcpServers: { s: { command: "x", roots: ["a/b"] } } });
    expect(relative.invalid[0].error).toMatch(/roots.*"a\/b" is not an absolute path/);
    const notList = parseConfig({ mcpServers: { s: { command: "x", roots: "/a" } } });
    expect(notList.invalid[0].error).toMatch(/`roots` must be an array of folder paths/);
  });
});
