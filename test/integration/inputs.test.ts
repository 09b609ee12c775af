// VS Code `${input:token}` end to end through the whole core, from a config file on disk: a real
// stdio fixture (the input in env and args) and a real HTTP fixture that echoes the headers it got
// (the input in Authorization). The first start asks through the real Inbox; the answers land in
// the (memory) SecretStore and never in the file; a restart with the same store asks nothing; a
// decline fails the server naming the input.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCore, type Core } from "../../src/main/app/core";
import { browserPlatform } from "../../src/main/app/serve";
import { createMemoryStore } from "../../src/main/secrets/memory-store";
import type { SecretStore } from "../../src/main/secrets/types";
import type { InboxEvent, PendingEntry } from "../../src/shared/types";
import { fixture, fixturesDir } from "../fixtures";
import { until } from "../helpers/poll";
import { outputOf } from "../helpers/tool-output";

const TOKEN = "vs-input-TOKEN-5e4d3c2b1a";
const REMOTE_KEY = "remote-KEY-0a9b8c7d6e";
const INPUTS = [{ id: "token", description: "API token", password: true }];

let echo: { url: string; child: ChildProcess };
let dir: string;
let configPath: string;
let configText: string;

function startEcho(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [fixture("echo-headers"), "--mode", "tool-error"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("echo-headers did not start")), 10_000);
    child.stdout!.on("data", (chunk) => {
      out += String(chunk);
      const match = /^LISTENING (\S+)$/m.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], child });
      }
    });
    child.once("exit", () => reject(new Error("echo-headers exited")));
  });
}

const cores: Core[] = [];
async function start(secrets: SecretStore): Promise<{ core: Core; added: PendingEntry[] }> {
  const added: PendingEntry[] = [];
  const core = await createCore({ configPath, platform: browserPlatform, secrets, connectInBackground: true, log: () => undefined });
  cores.push(core);
  core.events.on("inbox:event", (e: InboxEvent) => {
    if (e.type === "added") added.push(e.entry);
  });
  // Questions asked before the listener was attached are in the Inbox already.
  for (const entry of await core.handlers["inbox:list"](undefined)) added.push(entry);
  return { core, added };
}

const state = (core: Core, name: string) => core.servers().find((s) => s.name === name);

async function run(core: Core, name: string): Promise<string> {
  const tool = core.internals.source.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  // The server's own result, before the views' scrubbing: what the server really received.
  return (await outputOf(tool.execute({}))).output;
}

beforeAll(async () => {
  echo = await startEcho();
  dir = mkdtempSync(join(tmpdir(), "tnc-inputs-"));
  configPath = join(dir, "mcp.json");
  configText = JSON.stringify(
    {
      mcpServers: {
        local: {
          command: process.execPath,
          args: [join(fixturesDir, "echo-env.mjs"), "--token=${input:token}"],
          env: { ECHO_ENV: "TOKEN", TOKEN: "${input:token}" },
          inputs: INPUTS,
        },
        remote: { url: echo.url, type: "streamable-http", protocol: "legacy", headers: { Authorization: "Bearer ${input:token}" }, inputs: INPUTS },
      },
    },
    null,
    2,
  );
  writeFileSync(configPath, configText);
});

afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

afterAll(() => {
  echo?.child.kill("SIGKILL");
});

describe("VS Code ${input:…} through the core", () => {
  const store = createMemoryStore("test store");

  it("the first start asks each server through the Inbox; the answers reach env, args and the header, and land in the store, not the file", async () => {
    const { core, added } = await start(store);
    const questions = await until(() => (added.length >= 2 ? added : undefined), 15_000, "two input questions");
    expect(questions.map((q) => q.source.server).sort()).toEqual(["local", "remote"]);
    for (const q of questions) {
      expect(q.request.kind).toBe("input");
      expect(q.request.prompt).toBe("VS Code config asks: API token. Stored in your keychain.");
      expect((q.request.data?.schema as { properties: { value: { format?: string } } }).properties.value.format).toBe("password");
      expect(["connecting"]).toContain(state(core, q.source.server!)?.state);
    }
    for (const q of questions) {
      await core.handlers["inbox:answer"]({ id: q.request.id, ok: true, data: { value: q.source.server === "local" ? TOKEN : REMOTE_KEY } });
    }
    await until(() => ["local", "remote"].every((n) => state(core, n)?.state === "connected"), 15_000, "both connected");

    const local = JSON.parse(await run(core, "local_started_with")) as { argv: string[]; env: Record<string, string> };
    expect(local.env.TOKEN).toBe(TOKEN);
    expect(local.argv).toEqual([`--token=${TOKEN}`]);
    expect(await run(core, "remote_echo_result")).toContain(`authorization: Bearer ${REMOTE_KEY}`);

    expect((await store.list()).filter((n) => n.startsWith("input."))).toEqual(["input.local.token", "input.remote.token"]);
    expect(await store.get("input.local.token")).toBe(TOKEN);
    const onDisk = readFileSync(configPath, "utf8");
    expect(onDisk).toBe(configText);
    expect(onDisk).not.toContain(TOKEN);
    expect(onDisk).not.toContain(REMOTE_KEY);
    // What a view sees of a tool run is scrubbed of the stored answer.
    const viewed = await core.handlers["tools:run"]({ tool: "local_started_with", args: {} });
    expect(viewed.output).not.toContain(TOKEN);
  });

  it("a restart with the same store asks nothing and connects with the stored values", async () => {
    const { core, added } = await start(store);
    await until(() => ["local", "remote"].every((n) => state(core, n)?.state === "connected"), 15_000, "both connected");
    expect(added).toEqual([]);
    expect(JSON.parse(await run(core, "local_started_with")).env.TOKEN).toBe(TOKEN);
    expect(await run(core, "remote_echo_result")).toContain(`authorization: Bearer ${REMOTE_KEY}`);
  });

  it("a decline fails that server naming the input, is not asked again by the restarts, and leaves the other server alone", async () => {
    const fresh = createMemoryStore("another store");
    await fresh.set("input.remote.token", REMOTE_KEY);
    const { core, added } = await start(fresh);
    const question = await until(() => added.find((q) => q.source.server === "local"), 15_000, "the local question");
    await core.handlers["inbox:answer"]({ id: question.request.id, ok: false, reason: "declined" });
    const failed = await until(() => {
      const s = state(core, "local");
      return s && s.state !== "connecting" && s.state !== "connected" ? s : undefined;
    }, 15_000, "local fails");
    expect(failed.error).toMatch(/needs input token: API token \(declined/);
    expect(failed.error).not.toContain("${input:");
    await until(() => state(core, "remote")?.state === "connected", 15_000, "remote connected");
    // The supervisor's restarts (1 s, 2 s…) find the decline and do not ask again.
    await new Promise((r) => setTimeout(r, 2500));
    expect(added.filter((q) => q.source.server === "local")).toHaveLength(1);
    expect(state(core, "local")?.error).toMatch(/needs input token: API token \(declined/);
    expect(await fresh.get("input.local.token")).toBeUndefined();
  });
});
