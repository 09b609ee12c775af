// The gateway end to end: an SDK client (an agent) reaches server-everything through the
// companion, and the server's question is answered by a scripted person in the Inbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectAgent, nextQuestion, startCompanion, textOf, until, type Companion } from "./gateway-harness";

let companion: Companion;

beforeAll(async () => {
  companion = await startCompanion();
});
afterAll(async () => {
  await companion?.close();
});

describe("gateway: an agent uses the companion's servers", () => {
  it("lists every tool under the source's names and forwards echo", async () => {
    const agent = await connectAgent(companion, "claude-code");
    try {
      const { tools } = await agent.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toContain("everything_echo");
      expect(names).toContain("everything_trigger-elicitation-request");
      expect(names.sort()).toEqual(companion.source.tools.map((t) => t.name).sort());
      const echo = await agent.callTool({ name: "everything_echo", arguments: { message: "hello gateway" } });
      expect(echo.isError ?? false).toBe(false);
      expect(textOf(echo)).toBe("Echo: hello gateway");
      expect(companion.gateway.sessions().map((s) => s.agent)).toContain("claude-code");
    } finally {
      await agent.close();
    }
  });

  it("puts the server's question in the Inbox with server and agent, and returns the server's text", async () => {
    const agent = await connectAgent(companion, "cursor-agent");
    try {
      const question = nextQuestion(companion, (e) => e.source.agent === "cursor-agent");
      const call = agent.callTool({ name: "everything_trigger-elicitation-request", arguments: {} });
      const entry = await question;
      expect(entry.source).toEqual({ server: "everything", agent: "cursor-agent", tool: "trigger-elicitation-request" });
      expect(entry.request.kind).toBe("input");
      expect(entry.request.prompt).toBe("Please provide inputs for the following fields:");
      companion.inbox.answer(entry.request.id, { ok: true, data: { name: "Ada Lovelace", check: true } });
      const result = await call;
      const text = textOf(result);
      expect(text).toContain("✅ User provided the requested information!");
      expect(text).toContain("- Name: Ada Lovelace");
      expect(text).toContain("- Favorite Integer: 42"); // the schema's default, applied by the Inbox
    } finally {
      await agent.close();
    }
  });

  it("maps a decline back to the server", async () => {
    const agent = await connectAgent(companion, "vscode");
    try {
      const question = nextQuestion(companion, (e) => e.source.agent === "vscode");
      const call = agent.callTool({ name: "everything_trigger-elicitation-request", arguments: {} });
      companion.inbox.answer((await question).request.id, { ok: false, reason: "declined" });
      expect(textOf(await call)).toContain("❌ User declined");
    } finally {
      await agent.close();
    }
  });

  it("gives two agents calling at once their own answers", async () => {
    const [a, b] = await Promise.all([connectAgent(companion, "agent-a"), connectAgent(companion, "agent-b")]);
    try {
      // b calls only once a's question is in, so the first question is certainly a's. With both
      // calls open, the source names both agents on the second (a pushed elicitation does not
      // say which call it belongs to); the answers must still reach the right calls.
      const qa = nextQuestion(companion, (e) => e.source.agent === "agent-a");
      const ca = a.callTool({ name: "everything_trigger-elicitation-request", arguments: {} });
      const ea = await qa;
      const qb = nextQuestion(companion, (e) => e.request.id !== ea.request.id && (e.source.agent ?? "").includes("agent-b"));
      const cb = b.callTool({ name: "everything_trigger-elicitation-request", arguments: {} });
      const eb = await qb;
      expect(eb.source.agent).toBe("agent-a or agent-b");
      // Answer in the opposite order of asking.
      companion.inbox.answer(eb.request.id, { ok: true, data: { name: "Bea" } });
      companion.inbox.answer(ea.request.id, { ok: true, data: { name: "Abe" } });
      const [ra, rb] = await Promise.all([ca, cb]);
      expect(textOf(ra)).toContain("- Name: Abe");
      expect(textOf(ra)).not.toContain("Bea");
      expect(textOf(rb)).toContain("- Name: Bea");
      expect(textOf(rb)).not.toContain("Abe");
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("withdraws the question when the agent disconnects mid-question", async () => {
    const agent = await connectAgent(companion, "quitter");
    const question = nextQuestion(companion, (e) => (e.source.agent ?? "").includes("quitter"));
    const call = agent.callTool({ name: "everything_trigger-elicitation-request", arguments: {} }).catch((e: Error) => e);
    const entry = await question;
    expect(companion.inbox.get(entry.request.id)).toBeDefined();
    await agent.close();
    await until(() => companion.withdrawn.includes(entry.request.id));
    expect(companion.inbox.get(entry.request.id)).toBeUndefined();
    await call;
  });

  it("withdraws the question when the agent cancels its call", async () => {
    const agent = await connectAgent(companion, "canceller");
    try {
      const controller = new AbortController();
      const question = nextQuestion(companion, (e) => (e.source.agent ?? "").includes("canceller"));
      const call = agent
        .callTool({ name: "everything_trigger-elicitation-request", arguments: {} }, { signal: controller.signal })
        .catch((e: Error) => e);
      const entry = await question;
      controller.abort("changed my mind");
      await until(() => companion.withdrawn.includes(entry.request.id));
      expect(await call).toBeInstanceOf(Error);
      // The session survives a cancelled call.
      expect(textOf(await agent.callTool({ name: "everything_echo", arguments: { message: "still here" } }))).toBe("Echo: still here");
    } finally {
      await agent.close();
    }
  });

  it("forwards progress notifications for the agent's progress token", async () => {
    const agent = await connectAgent(companion, "progress-watcher");
    try {
      const seen: number[] = [];
      const result = await agent.callTool(
        { name: "everything_trigger-long-running-operation", arguments: { duration: 1, steps: 3 } },
        { onprogress: (p) => seen.push(p.progress) },
      );
      expect(result.isError ?? false).toBe(false);
      // The source itself delivers steps 1 and 2 of 3: the SDK client drops the last progress
      // notification, which races the result (reported to the lead); the gateway forwards all it gets.
      expect(seen.slice(0, 2)).toEqual([1, 2]);
    } finally {
      await agent.close();
    }
  });

  it("passes structuredContent and isError through untouched", async () => {
    const agent = await connectAgent(companion, "structured");
    try {
      const result = await agent.callTool({ name: "everything_get-structured-content", arguments: { location: "New York" } });
      expect(result.structuredContent).toBeDefined();
      const unknown = await agent.callTool({ name: "everything_echo", arguments: {} });
      expect(unknown.isError).toBe(true);
    } finally {
      await agent.close();
    }
  });
});

describe("gateway: sessions agents abandon", () => {
  it("ends a session nobody uses or listens to any more, and keeps a live one", async () => {
    const idle = await startCompanion({ everything: false, idleSessionMs: 300 });
    try {
      const live = await connectAgent(idle, "live");
      const gone = await connectAgent(idle, "gone");
      // Most agents drop the connection without a DELETE; the SDK client's close() does just that.
      await gone.close();
      await until(() => !idle.gateway.sessions().some((s) => s.agent === "gone"), 5_000);
      expect(idle.gateway.sessions().map((s) => s.agent)).toEqual(["live"]);
      expect((await live.listTools()).tools).toEqual([]);
      await live.close();
    } finally {
      await idle.close();
    }
  });
});
