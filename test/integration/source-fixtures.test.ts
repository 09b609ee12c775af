// loadMcp against fixture servers written with the SDK: both protocol eras, withdrawn and
// crashing questions, hung servers, process trees, capabilities, pagination, floods, long waits.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpConfigError } from "../../src/main/base/config-text";
import { loadMcp, type McpSource } from "../../src/main/mcp/source";
import type { InboxEvent } from "../../src/shared/types";
import { fixtureCommand, isAlive, startHttpFixture, waitForExit, type RunningHttpServer } from "../fixtures";
import { scriptedPerson } from "../helpers/person";
import { until } from "../helpers/poll";
import { outputOf } from "../helpers/tool-output";

let sources: McpSource[] = [];
let servers: RunningHttpServer[] = [];
afterEach(async () => {
  await Promise.all(sources.map((s) => s.close()));
  await Promise.all(servers.map((s) => s.close()));
  sources = [];
  servers = [];
});

async function load(config: unknown, options: Parameters<typeof loadMcp>[1] = {}): Promise<McpSource> {
  const source = await loadMcp(config, options);
  sources.push(source);
  return source;
}

const toolOf = (source: McpSource, name: string) => {
  const tool = source.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}; have ${source.tools.map((t) => t.name).join(", ")}`);
  return tool;
};

describe("both protocol eras reach the same waitFor", () => {
  it("2026-07-28 input_required over streamable HTTP: the retried call completes", async () => {
    const server = await startHttpFixture();
    servers.push(server);
    const person = scriptedPerson(() => ({ ok: true, data: { region: "apac" } }));
    const source = await load({ mcpServers: { modern: { url: server.url } } }, { waitFor: person.waitFor });
    expect(source.servers()[0]).toMatchObject({ state: "connected", transport: "streamable-http", protocol: "2026-07-28" });
    const result = await outputOf(toolOf(source, "modern_ask_region").execute({}));
    expect(result).toMatchObject({ output: "region: apac", isError: false });
    expect(person.seen).toHaveLength(1);
    expect(person.seen[0].request).toMatchObject({ kind: "input", id: expect.stringMatching(/^elc-/) });
    expect(person.seen[0].source).toEqual({ server: "modern", tool: "ask_region" });
  });

  it("2025-11-25 pushed elicitation/create over stdio from the same server code", async () => {
    const person = scriptedPerson(() => ({ ok: true, data: { region: "emea" } }));
    const source = await load({ mcpServers: { legacy: fixtureCommand("modern-elicit") } }, { waitFor: person.waitFor });
    expect(source.servers()[0].protocol).toMatch(/^2025-/);
    await expect(outputOf(toolOf(source, "legacy_ask_region").execute({}))).resolves.toMatchObject({ output: "region: emea" });
    expect(person.seen[0].request.kind).toBe("input");
  });

  it("a decline travels back over the 2026 retry too", async () => {
    const server = await startHttpFixture();
    servers.push(server);
    const person = scriptedPerson(() => ({ ok: false, reason: "declined" }));
    const source = await load({ mcpServers: { modern: { url: server.url } } }, { waitFor: person.waitFor });
    await expect(outputOf(toolOf(source, "modern_ask_region").execute({}))).resolves.toMatchObject({ output: expect.stringContaining("declined") });
  });
});

describe("questions that go away", () => {
  it("a server that cancels its elicitation withdraws the question", async () => {
    const person = scriptedPerson();
    const events: InboxEvent[] = [];
    person.inbox.on((e) => events.push(e));
    const source = await load({ mcpServers: { fickle: fixtureCommand("cancel-elicit") } }, { waitFor: person.waitFor });
    const call = outputOf(toolOf(source, "fickle_ask_then_withdraw").execute({ afterMs: 300 }));
    const question = await person.nextQuestion();
    expect(person.inbox.list()).toHaveLength(1);
    await expect(call).resolves.toMatchObject({ output: "withdrawn" });
    await until(() => person.inbox.list().length === 0, 3000, "the question to be withdrawn");
    expect(events.find((e) => e.type === "withdrawn")).toMatchObject({ id: question.request.id, reason: "aborted" });
    expect(() => person.inbox.answer(question.request.id, { ok: true })).toThrow(/No pending question/);
  });

  it("a server that crashes mid-question: withdrawn, failed, the others unaffected", async () => {
    const person = scriptedPerson();
    const source = await load(
      { mcpServers: { crashy: fixtureCommand("crash-mid-question"), steady: fixtureCommand("crash-mid-question") } },
      { waitFor: person.waitFor },
    );
    const call = toolOf(source, "crashy_ask_then_crash").execute({ afterMs: 200 });
    await person.nextQuestion();
    await expect(call).rejects.toThrow(/crashy/);
    await until(() => person.inbox.list().length === 0, 3000, "the question to be withdrawn");
    await until(() => source.status.crashy === "failed", 3000, "crashy to fail");
    expect(source.servers().find((s) => s.name === "crashy")?.error).toMatch(/exited with code 3/);
    expect(source.tools.some((t) => t.server === "crashy")).toBe(false);
    expect(source.status.steady).toBe("connected");
    await expect(outputOf(toolOf(source, "steady_ping").execute({}))).resolves.toMatchObject({ output: "pong" });
  });
});

describe("bounded, isolated connects", () => {
  it("a server that never answers initialize fails within its timeout; the others load", async () => {
    const started = Date.now();
    const source = await load({
      mcpServers: { hung: { ...fixtureCommand("never-initialize"), timeout: 800 }, fine: fixtureCommand("crash-mid-question") },
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(source.status).toEqual({ hung: "failed", fine: "connected" });
    expect(source.servers().find((s) => s.name === "hung")?.error).toMatch(/800/);
  });

  it("bad servers are clear errors naming the server; good ones still load", async () => {
    const source = await load({
      mcpServers: {
        nothing: { args: ["x"] },
        missing: { command: "definitely-not-a-command-xyz" },
        off: { command: "x", enabled: false },
        good: fixtureCommand("crash-mid-question"),
      },
    });
    expect(source.status).toEqual({ good: "connected", missing: "failed", off: "disabled", nothing: "failed" });
    const errors = Object.fromEntries(source.servers().map((s) => [s.name, s.error]));
    expect(errors.nothing).toMatch(/server "nothing": needs a `command`/);
    expect(errors.missing).toBe('command "definitely-not-a-command-xyz" was not found');
  });

  it("a malformed or unknown config is refused as a whole, clearly", async () => {
    await expect(loadMcp('{"mcpServers": {')).rejects.toThrow(McpConfigError);
    await expect(loadMcp([1, 2, 3])).rejects.toThrow(/must be an object of servers/);
  });

  it("walks tools/list pagination", async () => {
    const source = await load({ mcpServers: { paged: fixtureCommand("paged-tools") } });
    expect(source.tools.map((t) => t.tool)).toEqual(Array.from({ length: 25 }, (_, i) => `t${String(i + 1).padStart(2, "0")}`));
  });
});

describe("capabilities", () => {
  const capsSeen = async (withWaitFor: boolean) => {
    const file = join(mkdtempSync(join(tmpdir(), "caps-")), "caps.json");
    const person = scriptedPerson();
    await load(
      { mcpServers: { caps: { ...fixtureCommand("capabilities"), env: { CAPS_FILE: file } } } },
      withWaitFor ? { waitFor: person.waitFor } : {},
    );
    await until(() => {
      try {
        return readFileSync(file, "utf8").length > 0;
      } catch {
        return false;
      }
    });
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  };

  it("without waitFor the server sees no elicitation capability", async () => {
    expect(await capsSeen(false)).not.toHaveProperty("elicitation");
  });

  it("with waitFor it sees form and url elicitation", async () => {
    expect((await capsSeen(true)).elicitation).toEqual({ form: {}, url: {} });
  });
});

describe("process trees and long waits", () => {
  it("close() kills each stdio child's whole process group", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "pids-")), "pids.json");
    const source = await loadMcp({ mcpServers: { tree: { ...fixtureCommand("grandchild"), env: { PIDS_FILE: file } } } });
    await until(() => {
      try {
        return readFileSync(file, "utf8").length > 0;
      } catch {
        return false;
      }
    });
    const pids = JSON.parse(readFileSync(file, "utf8")) as { server: number; grandchild: number };
    expect(isAlive(pids.server) && isAlive(pids.grandchild)).toBe(true);
    await source.close();
    expect(await waitForExit(pids.server)).toBe(true);
    expect(await waitForExit(pids.grandchild)).toBe(true);
  });

  it("a call whose server waits on a person outlives the idle timeout", async () => {
    const person = scriptedPerson();
    const source = await load({ mcpServers: { slow: { ...fixtureCommand("slow-tool"), callTimeout: 400 } } }, { waitFor: person.waitFor });
    const call = outputOf(toolOf(source, "slow_ask_after").execute({ ms: 50 }));
    const question = await person.nextQuestion();
    await new Promise((r) => setTimeout(r, 1200)); // three idle timeouts pass while the person thinks
    person.inbox.answer(question.request.id, { ok: true, data: { ok: true } });
    await expect(call).resolves.toMatchObject({ isError: false, output: expect.stringContaining("accept") });
  });

  it("an idle call with no question pending still times out", async () => {
    const source = await load({ mcpServers: { slow: { ...fixtureCommand("slow-tool"), callTimeout: 300 } } });
    await expect(toolOf(source, "slow_sleep").execute({ ms: 3000 })).rejects.toThrow(/got no response for 300 ms/);
  });

  it("the maximum wait bounds even a pending question", async () => {
    const person = scriptedPerson();
    const source = await load({ mcpServers: { slow: fixtureCommand("slow-tool") } }, { waitFor: person.waitFor, maxWaitMs: 700 });
    const call = toolOf(source, "slow_ask_after").execute({ ms: 0 });
    await person.nextQuestion();
    await expect(call).rejects.toThrow(/slow/);
    await until(() => person.inbox.list().length === 0, 3000, "the question to be withdrawn");
  });
});

describe("a flooding server", () => {
  it("past the per-server cap, questions are cancelled at once while the first ones wait", async () => {
    const person = scriptedPerson();
    const source = await load({ mcpServers: { noisy: fixtureCommand("flood") } }, { waitFor: person.waitFor });
    const call = outputOf(toolOf(source, "noisy_ask_many").execute({ count: 11 }));
    await until(() => person.inbox.list().length === 8, 5000, "8 pending questions");
    await new Promise((r) => setTimeout(r, 200));
    expect(person.inbox.list()).toHaveLength(8);
    for (const entry of person.inbox.list()) person.inbox.answer(entry.request.id, { ok: true, data: {} });
    const { output } = await call;
    const actions = output.split(",");
    expect(actions.filter((a) => a === "accept")).toHaveLength(8);
    expect(actions.filter((a) => a === "cancel")).toHaveLength(3);
  });
});
