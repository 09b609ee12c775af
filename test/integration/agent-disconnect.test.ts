// An agent that goes away takes its questions with it, at once and said as such: real SDK agents
// over HTTP to the gateway, a real stdio server that elicits and writes down what it was told, the
// Inbox and a real SQLite history. The agent ends its session (DELETE), drops its connection, or
// drops a /v1/requests long-poll; a question shared with another agent's call stays.
import { mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request as httpRequest } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { nextQuestion, startCompanion, textOf, until, type Companion } from "./gateway-harness";
import { fixturesDir } from "../fixtures";
import { HistoryStore } from "../../src/main/history/store";
import { attachHistory, type HistoryRecorder } from "../../src/main/history/recorder";
import type { InboxEvent } from "../../src/shared/types";

type Withdrawn = Extract<InboxEvent, { type: "withdrawn" }>;

let dir: string;
let record: string;
let companion: Companion;
let store: HistoryStore;
let recorder: HistoryRecorder;
let withdrawn: Map<string, Withdrawn & { at: number }>;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "agent-gone-"));
  record = join(dir, "record.jsonl");
  companion = await startCompanion({
    config: { mcpServers: { rec: { command: process.execPath, args: [join(fixturesDir, "elicit-record.mjs"), record] } } },
  });
  store = new HistoryStore({ path: join(dir, "history.sqlite") });
  recorder = attachHistory(companion.inbox, store);
  withdrawn = new Map();
  companion.inbox.on((event) => {
    if (event.type === "withdrawn") withdrawn.set(event.id, { ...event, at: Date.now() });
  });
});

afterEach(async () => {
  recorder.stop();
  await companion.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * An agent as the SDK makes one. With `sampling` it says it can answer sampling, so its calls
 * take the SDK's path through the gateway instead of the short one.
 */
async function connectAgent(companion: Companion, name: string, sampling = false): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, { capabilities: sampling ? { sampling: {} } : {} });
  if (sampling) client.setRequestHandler("sampling/createMessage", async () => ({ role: "assistant", content: { type: "text", text: "" }, model: "none" }));
  await client.connect(new StreamableHTTPClientTransport(new URL(companion.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${companion.token}` } } }));
  return client;
}

/** What the server was told, by label. */
function told(): Record<string, { action?: string; callCancelled?: boolean; error?: string }> {
  if (!existsSync(record)) return {};
  const lines = readFileSync(record, "utf8").split("\n").filter(Boolean);
  return Object.fromEntries(lines.map((l) => JSON.parse(l) as { label: string; action?: string; callCancelled?: boolean; error?: string }).map(({ label, ...rest }) => [label, rest]));
}

describe("an agent that disconnects withdraws its questions at once", () => {
  const cases = [
    ["ends its session (DELETE)", false],
    ["drops its connection", false],
    ["ends its session (DELETE), calling through the SDK's path", true],
    ["drops its connection, calling through the SDK's path", true],
  ] as const;
  for (const [how, sdkPath] of cases) {
    it(`${how}: its own question is withdrawn as "<agent> disconnected", the server gets cancel, a shared one stays`, async () => {
      const quitter = await connectAgent(companion, "quitter", sdkPath);
      const stayer = await connectAgent(companion, "stayer", sdkPath);
      try {
        // quitter's question is its own; stayer's arrives while quitter's call is in flight, so
        // it cannot be told apart from quitter's call and is shared by both.
        const ownQ = nextQuestion(companion, (e) => e.request.prompt === "Note for a1?");
        const ownCall = quitter.callTool({ name: "rec_ask", arguments: { label: "a1" } }).catch((e: Error) => e);
        const own = await ownQ;
        expect(own.source.agent).toBe("quitter");
        const sharedQ = nextQuestion(companion, (e) => e.request.prompt === "Note for b1?");
        const sharedCall = stayer.callTool({ name: "rec_ask", arguments: { label: "b1" } });
        const shared = await sharedQ;
        expect(shared.source.agent).toBe("quitter or stayer");

        const gone = Date.now();
        if (how.startsWith("ends its session")) await (quitter.transport as StreamableHTTPClientTransport).terminateSession();
        await quitter.close();
        await until(() => withdrawn.has(own.request.id), 3000);
        const event = withdrawn.get(own.request.id)!;
        expect(event.at - gone).toBeLessThan(1000);
        expect(event.reason).toBe("agent-gone");
        expect(event.message).toBe("quitter disconnected");
        // The backend call was cancelled (notifications/cancelled) and the server's elicitation
        // got its answer: cancel.
        await until(() => told().a1 !== undefined, 3000);
        expect(told().a1).toEqual({ action: "cancel", callCancelled: true });
        await ownCall;

        // The shared question is untouched and still answers stayer's call.
        await new Promise((r) => setTimeout(r, 200));
        expect(withdrawn.has(shared.request.id)).toBe(false);
        expect(companion.inbox.get(shared.request.id)).toBeDefined();
        companion.inbox.answer(shared.request.id, { ok: true, data: { note: "kept" } });
        expect(textOf(await sharedCall)).toBe("answered: accept (kept)");

        // History says what happened, in the same words.
        await recorder.flush();
        const rows = store.list().items;
        expect(rows.find((r) => r.requestId === own.request.id)).toMatchObject({ outcome: "withdrawn", by: "companion", reason: "quitter disconnected" });
        expect(rows.find((r) => r.requestId === shared.request.id)).toMatchObject({ outcome: "accepted" });
      } finally {
        await Promise.all([quitter.close(), stayer.close()]);
      }
    });
  }

  it("an agent's cancel of its own call is not said as a disconnect", async () => {
    const agent = await connectAgent(companion, "canceller");
    try {
      const controller = new AbortController();
      const q = nextQuestion(companion, (e) => e.request.prompt === "Note for c1?");
      const call = agent.callTool({ name: "rec_ask", arguments: { label: "c1" } }, { signal: controller.signal }).catch((e: Error) => e);
      const entry = await q;
      controller.abort("changed my mind");
      await until(() => withdrawn.has(entry.request.id), 3000);
      expect(withdrawn.get(entry.request.id)!.reason).toBe("aborted");
      await call;
    } finally {
      await agent.close();
    }
  });

  it("a /v1/requests long-poll that drops withdraws its question as that agent's disconnect", async () => {
    const id = "req-gone-1";
    const body = JSON.stringify({ id, kind: "approval", prompt: "Run the build?" });
    const added = nextQuestion(companion, (e) => e.request.id === id);
    const req = httpRequest(`${companion.listener.url}/v1/requests`, {
      method: "POST",
      headers: { authorization: `Bearer ${companion.token}`, "content-type": "application/json", "x-agent-name": "poller", "content-length": String(Buffer.byteLength(body)) },
    });
    req.on("error", () => {});
    req.end(body);
    const entry = await added;
    expect(entry.source.agent).toBe("poller");
    const gone = Date.now();
    req.destroy();
    await until(() => withdrawn.has(id), 3000);
    const event = withdrawn.get(id)!;
    expect(event.at - gone).toBeLessThan(1000);
    expect(event).toMatchObject({ reason: "agent-gone", message: "poller disconnected" });
    await recorder.flush();
    expect(store.list().items.find((r) => r.requestId === id)).toMatchObject({ outcome: "withdrawn", reason: "poller disconnected" });
  });
});
