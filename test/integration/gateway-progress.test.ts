// Progress a backend sends right before its result reaches the agent, all of it and before the
// result. The backend (test/fixtures/burst-progress.mjs, stdio) writes its last progress and its
// result back to back, so the companion's client often reads both in one chunk: the case a busy
// machine makes common, where the conformance scenario tools-call-with-progress lost its last
// progress notification.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { fixturesDir } from "../fixtures";
import { connectAgent, startCompanion, textOf, type Companion } from "./gateway-harness";

let companion: Companion;
let agent: Client;

beforeAll(async () => {
  companion = await startCompanion({
    config: { mcpServers: { burst: { command: process.execPath, args: [join(fixturesDir, "burst-progress.mjs")] } } },
  });
  agent = await connectAgent(companion, "progress-agent");
}, 30_000);

afterAll(async () => {
  await agent?.close();
  await companion?.close();
});

describe("gateway progress", () => {
  it("relays every progress notification, in order, before the result", async () => {
    for (const count of [1, 3, 20]) {
      for (let round = 0; round < 10; round++) {
        const seen: number[] = [];
        // The agent's client drops a progress that comes after the result: a late one is a lost one.
        const result = await agent.callTool({ name: "burst_burst", arguments: { count } }, { onprogress: (p) => seen.push(p.progress) });
        expect(textOf(result)).toBe(`sent ${count}`);
        expect(seen).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      }
    }
  }, 60_000);
});
