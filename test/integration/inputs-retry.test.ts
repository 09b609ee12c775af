// A VS Code `${input:id}` question the person declined fails its server, and the supervisor's own
// restarts do not ask again; the person's Retry (servers:restart) does ask again, and an answer
// then connects the server. Through the whole core, from a config file, with a real stdio fixture.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCore, type Core } from "../../src/main/app/core";
import { browserPlatform } from "../../src/main/app/serve";
import { createMemoryStore } from "../../src/main/secrets/memory-store";
import type { InboxEvent, PendingEntry } from "../../src/shared/types";
import { fixturesDir } from "../fixtures";
import { until } from "../helpers/poll";

const TOKEN = "retry-TOKEN-1f2e3d4c";
const cores: Core[] = [];

afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

describe("Retry after a declined ${input:…}", () => {
  it("asks again, and the answer connects the server", { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "tnc-input-retry-"));
    const configPath = join(dir, "mcp.json");
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: {
          local: {
            command: process.execPath,
            args: [join(fixturesDir, "echo-env.mjs")],
            env: { ECHO_ENV: "TOKEN", TOKEN: "${input:token}" },
            inputs: [{ id: "token", description: "API token", password: true }],
          },
        },
      }),
    );
    const store = createMemoryStore("retry store");
    const core = await createCore({ configPath, platform: browserPlatform, secrets: store, connectInBackground: true, log: () => undefined });
    cores.push(core);
    const asked: PendingEntry[] = [...(await core.handlers["inbox:list"](undefined))];
    core.events.on("inbox:event", (e: InboxEvent) => {
      if (e.type === "added") asked.push(e.entry);
    });
    const state = () => core.servers().find((s) => s.name === "local");

    const first = await until(() => asked[0], 15_000, "the first question");
    await core.handlers["inbox:answer"]({ id: first.request.id, ok: false, reason: "declined" });
    await until(() => /declined/.test(state()?.error ?? ""), 15_000, "local fails on the decline");
    expect(state()?.error).toContain("Retry asks again");
    // The supervisor's first automatic restart (1 s) finds the decline and asks nothing.
    await new Promise((r) => setTimeout(r, 1500));
    expect(asked).toHaveLength(1);

    // The person's Retry: a new question, not a silent failure.
    const retried = core.handlers["servers:restart"]({ name: "local" });
    const second = await until(() => asked[1], 15_000, "the question asked again");
    expect(second.request.id).not.toBe(first.request.id);
    expect(second.request.prompt).toBe("VS Code config asks: API token. Stored in your keychain.");
    await core.handlers["inbox:answer"]({ id: second.request.id, ok: true, data: { value: TOKEN } });
    await retried;
    await until(() => state()?.state === "connected", 15_000, "local connected");
    expect(await store.get("input.local.token")).toBe(TOKEN);
  });
});
