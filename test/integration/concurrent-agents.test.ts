// Two agents (SDK v1 clients) calling one server at once through the gateway: each question names
// the agent whose call asked it where the wire says (a 2026-07-28 `input_required` result, bound
// to its call), and every agent with a call open where it cannot tell (one stdio session).
import { afterEach, describe, expect, it } from "vitest";
import { fixtureCommand, startHttpFixture } from "../fixtures";
import { startCompanion, until, type Companion } from "./gateway-harness";
import { textOfV1, v1Agent } from "./v1-agent";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

async function twoAgents(config: unknown): Promise<{ companion: Companion; a: Awaited<ReturnType<typeof v1Agent>>; b: Awaited<ReturnType<typeof v1Agent>> }> {
  const companion = await startCompanion({ config });
  cleanup.push(() => companion.close());
  const a = await v1Agent(companion, "claude-code");
  const b = await v1Agent(companion, "cursor");
  cleanup.push(() => a.close(), () => b.close());
  return { companion, a, b };
}

describe("questions from a server two agents call at once", () => {
  it("over 2026-07-28 HTTP, each names exactly the agent whose call asked it", async () => {
    const server = await startHttpFixture();
    cleanup.push(() => server.close());
    const { companion, a, b } = await twoAgents({ mcpServers: { modern: { url: server.url } } });
    const fromA = a.callTool({ name: "modern_ask_region", arguments: {} }, undefined, { timeout: 20_000 });
    const fromB = b.callTool({ name: "modern_ask_region", arguments: {} }, undefined, { timeout: 20_000 });
    await until(() => companion.added.length === 2, 10_000);
    const agents = companion.added.map((e) => e.source.agent);
    expect([...agents].sort()).toEqual(["claude-code", "cursor"]);
    // Each answer goes back to the call of the agent the question named.
    for (const entry of companion.added) {
      companion.inbox.answer(entry.request.id, { ok: true, data: { region: entry.source.agent === "claude-code" ? "emea" : "apac" } });
    }
    expect(textOfV1(await fromA)).toBe("region: emea");
    expect(textOfV1(await fromB)).toBe("region: apac");
  }, 30_000);

  it("over one stdio session, names every agent with a call open, never only one", async () => {
    const { companion, a, b } = await twoAgents({ mcpServers: { slow: fixtureCommand("slow-tool") } });
    const fromA = a.callTool({ name: "slow_ask_after", arguments: { ms: 400 } }, undefined, { timeout: 20_000 });
    const fromB = b.callTool({ name: "slow_ask_after", arguments: { ms: 400 } }, undefined, { timeout: 20_000 });
    await until(() => companion.added.length === 2, 10_000);
    for (const entry of companion.added) {
      expect(entry.source.agent?.split(" or ").sort()).toEqual(["claude-code", "cursor"]);
    }
    for (const entry of companion.added) companion.inbox.answer(entry.request.id, { ok: true, data: { ok: true } });
    await Promise.all([fromA, fromB]);
  }, 30_000);
});
