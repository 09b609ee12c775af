// An outside 2026-07-28 server stays connected under the app's supervision: mcp-use's MCPServer
// (2.5.2, negotiating 2026-07-28) behind the companion for three minutes, health-checked every
// second. Before the health check was chosen by era, its `ping` failed with "not supported by the
// negotiated protocol version", counted as a drop, and the server was restarted every 30 s until
// the companion gave up on it. Three minutes: longer than five such restarts took.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCompanion, type Companion } from "../integration/gateway-harness";
import { superviseSource, type Supervisor } from "../../src/main/mcp/supervisor";
import type { RuntimeSource } from "../../src/main/mcp/supervision";
import { scratchDir, startBackend, type Backend } from "./harness";
import { outputOf } from "../helpers/tool-output";

const WATCH_MS = 180_000;
const PING_EVERY_MS = 1_000;

const scratch = scratchDir();
let backend: Backend;
let companion: Companion;
let supervisor: Supervisor;
const states: string[] = [];

beforeAll(async () => {
  backend = await startBackend("mcpuse", scratch.path);
  companion = await startCompanion({ config: { mcpServers: { mcpuse: backend.config } } });
  companion.source.on((event) => {
    if (event.type === "status" && event.status.name === "mcpuse") states.push(`${event.status.state}${event.status.error ? `: ${event.status.error}` : ""}`);
  });
}, 60_000);

afterAll(async () => {
  await supervisor?.close();
  await companion?.close();
  await backend?.close();
  scratch.remove();
});

describe("mcp-use's 2026-07-28 server under supervision", () => {
  it(`stays connected for ${WATCH_MS / 60_000} minutes with a health check every ${PING_EVERY_MS / 1000} s, never restarted`, async () => {
    expect(companion.source.servers().find((s) => s.name === "mcpuse")).toMatchObject({ state: "connected", protocol: "2026-07-28" });
    supervisor = superviseSource(companion.source as unknown as RuntimeSource, { pingIntervalMs: PING_EVERY_MS });
    const shout = companion.source.tools.find((t) => t.name === "mcpuse_shout")!;
    const started = Date.now();
    // A call every 30 s, so "connected" is shown to mean it still answers.
    while (Date.now() - started < WATCH_MS) {
      await new Promise((resolve) => setTimeout(resolve, 30_000));
      expect(states.filter((s) => !s.startsWith("connected")), "the server was dropped or restarted").toEqual([]);
      expect((await outputOf(shout.execute({ text: "still here" }))).output).toContain("STILL HERE");
    }
    const status = companion.source.servers().find((s) => s.name === "mcpuse")!;
    expect(status).toMatchObject({ state: "connected", protocol: "2026-07-28" });
    expect(status.attempt).toBeUndefined();
  }, WATCH_MS + 60_000);
});
