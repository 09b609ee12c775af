// The Agents view says where the gateway token is kept: the shim reads it from the keychain or,
// without one, from the private token file, so the shim stays the default that works; a token
// kept for this session only breaks every form at the next start, and the plan says so.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentsHandlers } from "../../../../src/main/client-configs/agents-handlers";
import type { Machine } from "../../../../src/main/client-configs/types";
import type { AgentView, AgentsPlan, TokenKept } from "../../../../src/shared/agents";

const FIXTURE = fileURLToPath(new URL("../../../fixtures/agents", import.meta.url));
let root: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agents-token-"));
  await cp(FIXTURE, root, { recursive: true });
  home = join(root, "home");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function handlers(kept: TokenKept) {
  const machine = (project?: string): Machine => ({ platform: "linux", home, env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), APPDATA: join(home, "AppData", "Roaming") }, project });
  return createAgentsHandlers({ machine, companionUrl: () => "http://127.0.0.1:7315", cli: () => ({ command: "toolnexus-companion", args: [] }), token: () => "t", tokenKept: () => kept });
}

describe("where the token is kept, in the Agents view", () => {
  it("the token file: listed with every agent, the shim stays the default and its note names the file", async () => {
    const h = handlers({ kind: "file", path: "/home/ada/.local/state/toolnexus-companion/gateway-token" });
    const list = (await h["agents:list"](undefined)) as AgentView[];
    expect(list.every((a) => a.tokenKept?.kind === "file")).toBe(true);
    expect(list.find((a) => a.id === "cursor")?.defaultVia).toBe("shim");
    const plan = (await h["agents:plan"]({ agent: "cursor", connect: true })) as AgentsPlan;
    expect(plan.notes.join(" ")).toContain("reads the gateway token from /home/ada/.local/state/toolnexus-companion/gateway-token (readable only by you)");
  });

  it("a session-only token: the plan says the entry is refused after a restart, and why", async () => {
    const h = handlers({ kind: "session", why: "run: chmod 600 /s/gateway-token" });
    const plan = (await h["agents:plan"]({ agent: "cursor", connect: true })) as AgentsPlan;
    expect(plan.notes.join(" ")).toContain("kept for this session only (run: chmod 600 /s/gateway-token): after the companion restarts, Cursor is refused");
  });
});
