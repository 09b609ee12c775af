// A person who takes 90 s to answer, with the client libraries agents are built on, at their own
// default timeouts (60 s where they have one): each gets the person's answer, by progress
// heartbeats where the library resets its timeout on progress, by the opt-in long waits
// (gateway.longWaits, toolnexus_wait) where it cannot, and the tool runs once (one question per
// call). The SDK v1 client without resetTimeoutOnProgress shows what happens otherwise: it gives
// up at 60 s and the question is withdrawn. All libraries wait at once, so the file takes ~95 s.
// The README's table of libraries and settings is this file's outcome.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCompanion, type Companion } from "../integration/gateway-harness";
import type { PendingEntry } from "../../src/shared/types";
import { everythingStdioCommand } from "../fixtures";
import { spawnAgent, type Agent, type Reply } from "./harness";

/** How long the person takes: past every 60 s default, and past the long-wait deadline more than once. */
const ANSWER_AFTER_MS = 90_000;
/** Short enough that an opted-in agent waits three times before the answer comes. */
const DEADLINE_MS = 25_000;
const TOOL = "trigger-elicitation-request";

interface Case {
  label: string;
  /** The library, whose one agent process makes this case's call (the SDK v1 agent makes two at once). */
  library: string;
  script: string;
  /** The clientInfo.name it sends (LangChain's is fixed: its package name). */
  clientName: string;
  /** Its own server, so each question names one call and one agent. */
  server: string;
  /** Ops' extra arguments: the library's defaults, and progress where the case relies on it. */
  call: Record<string, unknown>;
  connect?: Record<string, unknown>;
  how: "progress" | "opt-in" | "no timeout" | "gives up";
}

const CASES: Case[] = [
  { label: "SDK v1, resetTimeoutOnProgress", library: "@modelcontextprotocol/sdk", script: "sdk-v1.mjs", clientName: "long-sdk-v1", server: "evsdk", call: { progress: true, timeoutMs: "default" }, how: "progress" },
  { label: "SDK v1, its defaults", library: "@modelcontextprotocol/sdk", script: "sdk-v1.mjs", clientName: "long-sdk-v1", server: "evsdkplain", call: { timeoutMs: "default" }, how: "gives up" },
  { label: "mcp-use, resetTimeoutOnProgress", library: "mcp-use", script: "mcp-use.mjs", clientName: "long-mcp-use", server: "evmcpuse", call: { progress: true, timeoutMs: "default" }, how: "progress" },
  { label: "LangChain, opted in", library: "@langchain/mcp-adapters", script: "langchain.mjs", clientName: "@langchain/mcp-adapters", server: "evlangchain", call: {}, how: "opt-in" },
  { label: "Mastra, opted in", library: "@mastra/mcp", script: "mastra.mjs", clientName: "long-mastra", server: "evmastra", call: {}, connect: { timeoutMs: "default" }, how: "opt-in" },
  { label: "AI SDK, its defaults", library: "@ai-sdk/mcp", script: "ai-sdk.mjs", clientName: "long-ai-sdk", server: "evaisdk", call: {}, how: "no timeout" },
];
const LIBRARIES = [...new Set(CASES.map((c) => c.library))];

let companion: Companion;
const agents = new Map<string, Agent>();
/** Each case's question, answered ANSWER_AFTER_MS after it arrived. */
const answered = new Map<string, Promise<PendingEntry>>();

function callId(text: string): string | undefined {
  return /"call": "(tnw_[A-Za-z0-9_-]+)"/.exec(text)?.[1];
}

function textOf(reply: Reply): string {
  return ((reply.result?.content ?? []) as Array<{ type: string; text?: string }>).map((c) => c.text ?? "").join("\n");
}

/** The person: each question of `server` is answered ANSWER_AFTER_MS after it came, with the case's label as the name. */
function answerLate(c: Case): Promise<PendingEntry> {
  return new Promise((resolve) => {
    const off = companion.inbox.on((event) => {
      if (event.type !== "added" || event.entry.source.server !== c.server) return;
      off();
      const entry = event.entry;
      setTimeout(() => {
        // Answered only if still open: the agent that gives up takes its question with it.
        if (companion.inbox.list().some((e) => e.request.id === entry.request.id)) {
          companion.inbox.answer(entry.request.id, { ok: true, data: { name: c.label, email: "person@example.com", integer: 7, check: true } });
        }
        resolve(entry);
      }, ANSWER_AFTER_MS - (Date.now() - entry.receivedAt));
    });
  });
}

beforeAll(async () => {
  const servers = Object.fromEntries(CASES.map((c) => [c.server, everythingStdioCommand()]));
  companion = await startCompanion({
    config: { mcpServers: servers },
    longWaits: { agents: Object.fromEntries(CASES.filter((c) => c.how === "opt-in").map((c) => [c.clientName, true])), deadlineMs: DEADLINE_MS },
  });
  await Promise.all(
    LIBRARIES.map(async (library) => {
      const c = CASES.find((k) => k.library === library)!;
      const agent = await spawnAgent(c.script);
      agents.set(library, agent);
      await agent.must("connect", { target: { url: companion.mcpUrl, headers: { authorization: `Bearer ${companion.token}` } }, clientName: c.clientName, ...c.connect });
    }),
  );
}, 90_000);

afterAll(async () => {
  await Promise.all([...agents.values()].map((a) => a.close()));
  await companion?.close();
});

/** One case: the call, the person answering at 90 s, and what the agent got. */
async function run(c: Case): Promise<void> {
  const agent = agents.get(c.library)!;
  const name = `${c.server}_${TOOL}`;
  const questions = () => companion.added.filter((e) => e.source.server === c.server).length;
  answered.set(c.label, answerLate(c));
  const started = Date.now();
  let reply = await agent.send("callTool", { name, arguments: {}, ...c.call });

  if (c.how === "gives up") {
    // The library's own 60 s, and the question goes with the call.
    expect(reply.ok).toBe(false);
    expect(reply.error?.code).toBe(-32001);
    expect(reply.error?.message).toMatch(/timed out/i);
    expect(Date.now() - started).toBeLessThan(ANSWER_AFTER_MS);
    const entry = await answered.get(c.label)!;
    expect(companion.withdrawn).toContain(entry.request.id);
    expect(questions()).toBe(1);
    return;
  }

  const waits: number[] = [];
  let lastId: string | undefined;
  if (c.how === "opt-in") {
    // As a model would: read the result, call toolnexus_wait with the id it gives, until the real result.
    for (let round = 0; round < 10 && reply.ok; round++) {
      const id = callId(textOf(reply));
      if (id === undefined) break;
      expect(textOf(reply)).toMatch(/The person has not answered yet/);
      if (lastId !== undefined) expect(id).toBe(lastId);
      lastId = id;
      waits.push(Date.now() - started);
      reply = await agent.send("callTool", { name: "toolnexus_wait", arguments: { call: id }, ...c.call });
    }
    // Waited at each deadline, not sooner: 25 s, 50 s, 75 s, then the answer at 90 s.
    expect(waits.length).toBe(3);
    expect(waits[0]).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
  }

  expect(reply.ok, reply.error?.message).toBe(true);
  const text = textOf(reply);
  expect(text).toContain(`- Name: ${c.label}`);
  expect(Date.now() - started).toBeGreaterThanOrEqual(ANSWER_AFTER_MS - 1000);
  // The tool ran once: one question for this call, none since.
  expect(questions()).toBe(1);

  if (c.how === "progress") {
    const beats = agent.events.filter((e) => e.event === "progress" && e.params?.name === name).map((e) => e.params);
    // One at once, then every 5 s: about 18 in 90 s.
    expect(beats.length).toBeGreaterThanOrEqual(15);
    expect(beats[0].message).toMatch(/^Waiting for you to answer the question in Toolnexus Companion/);
    for (let i = 1; i < beats.length; i++) expect(beats[i].progress).toBeGreaterThan(beats[i - 1].progress);
  }
  if (c.how === "opt-in") {
    // Handed over once: the id is spent, and the tool did not run again.
    const again = await agent.send("callTool", { name: "toolnexus_wait", arguments: { call: lastId } });
    expect(textOf(again)).toMatch(/No call is waiting under the id/);
    expect(questions()).toBe(1);
  }
}

// Every library at once (vitest runs at most 5 concurrent tests; one per library keeps to that).
describe.concurrent("a person answering after 90 s reaches the agent", () => {
  for (const library of LIBRARIES) {
    const cases = CASES.filter((c) => c.library === library);
    it(`${library}: ${cases.map((c) => `${c.label.replace(/^[^,]*, /, "")} (${c.how})`).join("; ")}`, async () => {
      await Promise.all(cases.map(run));
    }, ANSWER_AFTER_MS + 45_000);
  }
});
