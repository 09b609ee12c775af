// "Who answers": the agent. A server's question during an agent's call goes to the agent, and the
// companion still shows it (an Inbox entry marked as being answered by that agent) and records it
// in history with the agent's outcome; if the agent fails, the same question waits for the person;
// if the person answers first, the agent's request is cancelled. Real processes throughout: the
// conformance fixture backend (stdio), the gateway on the loopback listener, SDK agents over
// streamable HTTP, history in a real SQLite file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { attachHistory, type HistoryRecorder } from "../../src/main/history/recorder";
import { HistoryStore } from "../../src/main/history/store";
import type { InboxEvent, PendingEntry } from "../../src/shared/types";
import { fixtureCommand } from "../fixtures";
import { becomesTrue } from "../helpers/poll";
import { nextQuestion, startCompanion, textOf, type Companion } from "./gateway-harness";

let companion: Companion;
let store: HistoryStore;
let recorder: HistoryRecorder;
let dir: string;
const events: InboxEvent[] = [];

beforeAll(async () => {
  companion = await startCompanion({
    config: { mcpServers: { test: fixtureCommand("conformance-server", ["test"]) } },
    elicitation: { default: "person", agents: { "answering-agent": "agent", "failing-agent": "agent", "slow-agent": "agent" } },
  });
  dir = mkdtempSync(join(tmpdir(), "tnc-agent-answers-"));
  store = new HistoryStore({ path: join(dir, "history.sqlite") });
  recorder = attachHistory(companion.inbox, store, { retryDelaysMs: [5, 5] });
  companion.inbox.on((event) => events.push(event));
}, 30_000);

afterAll(async () => {
  recorder?.stop();
  await companion?.close();
  store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function agentWith(name: string, answer: (signal: AbortSignal) => Promise<Record<string, unknown>>): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler("elicitation/create", (_request, ctx) => answer(ctx.mcpReq.signal) as never);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(companion.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${companion.token}` } } }),
  );
  return client;
}

async function recorded(requestId: string) {
  await recorder.flush();
  return store.list({}).items.find((r) => r.requestId === requestId);
}

describe("elicitation answered by the agent", () => {
  it("is shown as being answered by the agent, and recorded with the agent's answer", async () => {
    let shownWhileAnswering: PendingEntry | undefined;
    const agent = await agentWith("answering-agent", async () => {
      shownWhileAnswering = companion.inbox.list().find((e) => e.answering === "answering-agent");
      return { action: "accept", content: { username: "ada", email: "ada@example.com" } };
    });
    try {
      const result = await agent.callTool({ name: "test_elicitation", arguments: { message: "Who are you?" } });
      expect(textOf(result)).toBe('User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
      expect(shownWhileAnswering).toMatchObject({ request: { kind: "input", prompt: "Who are you?" }, source: { server: "test", agent: "answering-agent" } });
      const id = shownWhileAnswering!.request.id;
      expect(events).toContainEqual(expect.objectContaining({ type: "answered", id, by: "agent" }));
      expect(companion.inbox.get(id)).toBeUndefined();
      expect(await recorded(id)).toMatchObject({ outcome: "accepted", by: "agent", agent: "answering-agent", server: "test", answer: { username: "ada", email: "ada@example.com" } });
    } finally {
      await agent.close();
    }
  });

  it("records the agent's decline as the agent's", async () => {
    const agent = await agentWith("answering-agent", async () => ({ action: "decline" }));
    try {
      const asked = nextQuestion(companion, (e) => e.request.prompt === "Decline this");
      const result = await agent.callTool({ name: "test_elicitation", arguments: { message: "Decline this" } });
      expect(textOf(result)).toBe("User response: action=decline, content={}");
      expect(await recorded((await asked).request.id)).toMatchObject({ outcome: "declined", by: "agent" });
    } finally {
      await agent.close();
    }
  });

  it("leaves the question to the person when the agent fails, and records the person's answer", async () => {
    const agent = await agentWith("failing-agent", async () => {
      throw new Error("no model available");
    });
    try {
      const asked = nextQuestion(companion, (e) => e.request.prompt === "Fallback?");
      const call = agent.callTool({ name: "test_elicitation", arguments: { message: "Fallback?" } });
      const entry = await asked;
      expect(entry.answering).toBe("failing-agent");
      // Still pending after the agent's failure: the person answers it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(companion.inbox.get(entry.request.id)).toBeDefined();
      companion.inbox.answer(entry.request.id, { ok: true, data: { username: "person", email: "p@example.com" } });
      expect(textOf(await call)).toBe('User response: action=accept, content={"username":"person","email":"p@example.com"}');
      expect(await recorded(entry.request.id)).toMatchObject({ outcome: "accepted", by: "person", agent: "failing-agent" });
    } finally {
      await agent.close();
    }
  });

  it("sends the person's answer and cancels the agent's request when the person answers first", async () => {
    let agentCancelled = false;
    const agent = await agentWith("slow-agent", (signal) => new Promise((_resolve, reject) => signal.addEventListener("abort", () => {
      agentCancelled = true;
      reject(new Error("cancelled"));
    })));
    try {
      const asked = nextQuestion(companion, (e) => e.request.prompt === "Race?");
      const call = agent.callTool({ name: "test_elicitation", arguments: { message: "Race?" } });
      const entry = await asked;
      companion.inbox.answer(entry.request.id, { ok: true, data: { username: "quick", email: "q@example.com" } });
      expect(textOf(await call)).toBe('User response: action=accept, content={"username":"quick","email":"q@example.com"}');
      await becomesTrue(() => agentCancelled, 1000);
      expect(agentCancelled).toBe(true);
      expect(await recorded(entry.request.id)).toMatchObject({ outcome: "accepted", by: "person" });
    } finally {
      await agent.close();
    }
  });
});
