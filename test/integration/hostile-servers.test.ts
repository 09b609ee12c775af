// Hostile stdio servers (issue 7, classes 2 and 3), each loaded through createCore as the app
// loads them: deep and huge tool schemas, a deep elicitation schema, a pathological pattern, a
// 100k-option enum, deep and huge tool results. Whatever they send, the companion keeps serving:
// the servers view serialises, other tools still run, checks answer within 200 ms.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../src/main/app/core";
import { MAX_RESULT_BYTES_TO_PAGE, MAX_SERVER_MESSAGE_BYTES, MAX_TOOLS_PER_SERVER } from "../../src/shared/limits";
import { browserPlatform } from "../../src/main/app/serve";
import type { InboxEvent } from "../../src/shared/types";
import { fixtureCommand } from "../fixtures";
import { until } from "../helpers/poll";

let core: Core;
const lines: string[] = [];
const events: InboxEvent[] = [];

beforeAll(async () => {
  core = await createCore({
    config: {
      mcpServers: {
        tools: fixtureCommand("hostile-tools"),
        many: fixtureCommand("hostile-tools", ["--many", String(MAX_TOOLS_PER_SERVER + 500)]),
        asks: fixtureCommand("hostile-elicit"),
        lines: fixtureCommand("hostile-lines"),
      },
    },
    platform: browserPlatform,
    log: (line) => lines.push(line),
  });
  core.events.on("inbox:event", (event) => events.push(event));
});
afterAll(async () => {
  await core?.close();
});

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

describe("hostile tool lists", () => {
  it("drops the out-of-bounds tools with a log line; the server stays connected with the rest", () => {
    const status = core.internals.source.servers().find((s) => s.name === "tools");
    expect(status).toMatchObject({ state: "connected" });
    const names = core.internals.source.tools.filter((t) => t.server === "tools").map((t) => t.tool);
    expect(names.sort()).toEqual(["deep_result", "fine", "huge_result", "pattern_args"]);
    const log = lines.join("\n");
    expect(log).toMatch(/tools: tool "deep_schema" was dropped: it is nested more than 64 levels deep/);
    expect(log).toMatch(/tools: tool "deep_output" was dropped: it is nested more than 64 levels deep/);
    expect(log).toMatch(/tools: tool "wide_schema" was dropped: its definition is \d+ bytes; at most 262144 are kept/);
  });

  it("keeps at most MAX_TOOLS_PER_SERVER tools of one server", () => {
    expect(core.internals.source.servers().find((s) => s.name === "many")).toMatchObject({ state: "connected", toolCount: MAX_TOOLS_PER_SERVER });
    expect(lines.join("\n")).toMatch(/many: offers \d+ tools; only the first 1000 within bounds are kept/);
  });

  it("the servers view, as every page receives it, serialises", async () => {
    const view = await core.handlers["servers:list"](undefined);
    expect(() => JSON.stringify(view)).not.toThrow();
    expect(JSON.stringify(view).length).toBeGreaterThan(1000);
  });

  it("a catastrophic pattern under allOf in a tool's schema is checked within 200 ms", async () => {
    const s = "a".repeat(40) + "!";
    // The first check compiles the validator (cached after); the bound is on the hostile input.
    expect((await core.handlers["tools:check"]({ tool: "tools_pattern_args", args: { s: "aaa" } })).ok).toBe(true);
    const { value, ms } = await timed(() => core.handlers["tools:check"]({ tool: "tools_pattern_args", args: { s } }));
    expect(ms).toBeLessThan(200);
    expect(value.ok).toBe(false);
  });
});

describe("hostile tool results", () => {
  it("a deep result is refused with a reason; a huge one reaches the page truncated", async () => {
    const deep = await core.handlers["tools:run"]({ tool: "tools_deep_result", args: {} });
    expect(deep).toMatchObject({ isError: true, output: expect.stringMatching(/refused: it is nested more than 64 levels deep/) });
    const huge = await core.handlers["tools:run"]({ tool: "tools_huge_result", args: {} });
    expect(Buffer.byteLength(huge.output)).toBeLessThan(MAX_RESULT_BYTES_TO_PAGE + 200);
    expect(huge.output).toMatch(/\[output truncated: showing 1048576 of 5242880 bytes\]$/);
    expect(await core.handlers["tools:run"]({ tool: "tools_fine", args: {} })).toEqual({ output: "fine", isError: false });
  });
});

describe("a stdio server that breaks the line framing", () => {
  it("a 12 MiB message (over the SDK reader's 10 MiB) arrives; a line that is not JSON is skipped", async () => {
    await until(() => (core.internals.source.servers().find((s) => s.name === "lines")?.state === "connected" ? true : undefined), 10_000);
    const big = await core.handlers["tools:run"]({ tool: "lines_big", args: {} });
    expect(big.output).toMatch(/\[output truncated: showing 1048576 of 12582912 bytes\]$/);
    expect(await core.handlers["tools:run"]({ tool: "lines_chatter", args: {} })).toEqual({ output: "chatter", isError: false });
  });

  it("a message that never ends is cut at MAX_SERVER_MESSAGE_BYTES: the server is stopped with the reason, and the companion and other servers go on", async () => {
    const reason = `the server sent a message over ${MAX_SERVER_MESSAGE_BYTES} bytes without ending it, so the companion stopped it`;
    const { ms } = await timed(() => expect(core.handlers["tools:run"]({ tool: "lines_endless", args: {} })).rejects.toThrow(reason));
    expect(core.internals.source.servers().find((s) => s.name === "lines")?.error ?? "").toContain(reason);
    // 64 MiB through a pipe, each chunk scanned once: seconds at most, not minutes.
    expect(ms).toBeLessThan(15_000);
    expect(await core.handlers["tools:run"]({ tool: "tools_fine", args: {} })).toEqual({ output: "fine", isError: false });
    // Its process group is gone (supervision, with a config file, would start it again).
    expect(core.internals.source.servers().find((s) => s.name === "lines")?.state).toBe("failed");
  }, 40_000);
});

describe("hostile questions", () => {
  it("a deep requestedSchema is refused with -32602 and never reaches the Inbox", async () => {
    const before = events.length;
    const run = await core.handlers["tools:run"]({ tool: "asks_ask_deep", args: {} });
    expect(run.output).toMatch(/^error: .*nested more than 64 levels deep/);
    expect(events.slice(before).filter((e) => e.type === "added")).toEqual([]);
    expect(lines.join("\n")).toMatch(/asks: the question's params are refused: it is nested more than 64 levels deep; it was refused and not shown/);
  });

  it("a 100k-option form is refused with its reason and never reaches the Inbox", async () => {
    const before = events.length;
    const { value, ms } = await timed(() => core.handlers["tools:run"]({ tool: "asks_ask_enum", args: {} }));
    expect(value.output).toMatch(/^error: .*"pick" offers 100000 choices; at most 1000 are allowed/);
    expect(events.slice(before).filter((e) => e.type === "added")).toEqual([]);
    expect(ms).toBeLessThan(5000);
  });

  it("a pathological pattern form is shown; its checks answer within 200 ms; the answer goes back", async () => {
    const run = core.handlers["tools:run"]({ tool: "asks_ask_pattern", args: {} });
    const entry = await until(() => core.internals.inbox.list()[0], 10_000);
    const evil = "a".repeat(40) + "!";
    const check = await timed(() => core.handlers["forms:check"]({ id: entry.request.id, data: { code: evil } }));
    expect(check.ms).toBeLessThan(200);
    expect(check.value.ok).toBe(true);
    const answered = await timed(() => core.handlers["inbox:answer"]({ id: entry.request.id, ok: true, data: { code: evil } }));
    expect(answered.ms).toBeLessThan(200);
    expect((await run).output).toBe(`accept {"code":"${evil}"}`);
  });

  it("the same server still asks ordinary questions afterwards", async () => {
    const run = core.handlers["tools:run"]({ tool: "asks_ask_fine", args: {} });
    const entry = await until(() => core.internals.inbox.list()[0], 10_000);
    await core.handlers["inbox:answer"]({ id: entry.request.id, ok: true, data: { name: "Ada" } });
    expect((await run).output).toBe('accept {"name":"Ada"}');
  });
});
