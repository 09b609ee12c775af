// The gateway on the 2026-07-28 wire: the SDK v2 client negotiating ("auto") reaches
// server/discover and then speaks stateless per-request framing (no session) for tools, resources,
// prompts and completion; a server's question goes to the agent through an `input_required`
// result when "who answers" says so, else to the person in the Inbox; a 2025-11-25 agent beside it
// still gets its session; and such a request passes the same token, Host and Origin checks.
// Real processes: server-everything and the conformance fixture (stdio) behind loadMcp.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { everythingStdioCommand, fixtureCommand } from "../fixtures";
import { connectAgent, nextQuestion, rawRequest, startCompanion, textOf, type Companion } from "./gateway-harness";

let companion: Companion;

beforeAll(async () => {
  companion = await startCompanion({
    config: { mcpServers: { everything: everythingStdioCommand(), test: fixtureCommand("conformance-server", ["test"]) } },
    elicitation: { default: "person", agents: { "answering-agent": "agent" } },
  });
}, 30_000);

afterAll(async () => {
  await companion?.close();
});

async function modernAgent(name: string, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, { capabilities, versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(companion.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${companion.token}` } } }));
  return client;
}

const DISCOVER = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "server/discover",
  params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} } },
});

describe("a 2026-07-28 agent", () => {
  it("negotiates 2026-07-28 and gets the whole surface without a session", async () => {
    const agent = await modernAgent("modern-agent");
    try {
      expect(agent.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(agent.getServerVersion()?.name).toBe("toolnexus-companion");
      const { tools } = await agent.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["everything_echo", "test_elicitation"]));
      expect(textOf(await agent.callTool({ name: "everything_echo", arguments: { message: "hi there" } }))).toContain("hi there");
      const { resources } = await agent.listResources();
      expect(resources.length).toBeGreaterThan(0);
      const read = await agent.readResource({ uri: resources[0]!.uri });
      expect(read.contents.length).toBeGreaterThan(0);
      const { prompts } = await agent.listPrompts();
      const simple = prompts.find((p) => p.name.endsWith("simple-prompt"));
      expect(simple).toBeDefined();
      expect((await agent.getPrompt({ name: simple!.name })).messages.length).toBeGreaterThan(0);
      const completion = await agent.complete({ ref: { type: "ref/prompt", name: "everything_completable-prompt" }, argument: { name: "department", value: "Eng" } });
      expect(completion.completion.values).toContain("Engineering");
      // Stateless: nothing of this agent is kept as a session.
      expect(companion.gateway.sessions().filter((s) => s.agent === "modern-agent")).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it("answers a server's question itself through input_required when who-answers says the agent", async () => {
    const agent = await modernAgent("answering-agent", { elicitation: { form: {} } });
    let asked: unknown;
    agent.setRequestHandler("elicitation/create", async (request) => {
      asked = request.params;
      return { action: "accept", content: { username: "ada", email: "ada@example.com" } };
    });
    try {
      const before = companion.added.length;
      const result = await agent.callTool({ name: "test_elicitation", arguments: { message: "Who are you?" } });
      expect(textOf(result)).toBe('User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
      expect(asked).toMatchObject({ message: "Who are you?" });
      expect(agent.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      // The person was shown the question only as one the agent answers (as on 2025-11-25), never asked.
      expect(companion.added.slice(before).every((e) => e.answering === "answering-agent")).toBe(true);
    } finally {
      await agent.close();
    }
  });

  it("leaves a question to the person when the agent is not the one who answers", async () => {
    const agent = await modernAgent("person-agent", { elicitation: { form: {} } });
    agent.setRequestHandler("elicitation/create", async () => {
      throw new Error("the agent must not be asked");
    });
    try {
      const call = agent.callTool({ name: "test_elicitation", arguments: { message: "Your name, please" } });
      const entry = await nextQuestion(companion, (e) => e.source.agent === "person-agent");
      companion.inbox.answer(entry.request.id, { ok: true, data: { username: "bea", email: "bea@example.com" } });
      expect(textOf(await call)).toContain('"username":"bea"');
    } finally {
      await agent.close();
    }
  });

  it("runs beside a 2025-11-25 agent, which still gets its session", async () => {
    const legacy = await connectAgent(companion, "legacy-agent");
    const modern = await modernAgent("modern-beside");
    try {
      expect(legacy.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      expect(companion.gateway.sessions().some((s) => s.agent === "legacy-agent")).toBe(true);
      const [a, b] = await Promise.all([
        legacy.callTool({ name: "everything_echo", arguments: { message: "old" } }),
        modern.callTool({ name: "everything_echo", arguments: { message: "new" } }),
      ]);
      expect(textOf(a)).toContain("old");
      expect(textOf(b)).toContain("new");
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  it("passes the same token, Host and Origin checks as a session", async () => {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" };
    const ok = await rawRequest(companion.mcpUrl, { headers: { ...headers, authorization: `Bearer ${companion.token}` }, body: DISCOVER });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).result.supportedVersions).toContain("2026-07-28");
    const noToken = await rawRequest(companion.mcpUrl, { headers, body: DISCOVER });
    expect(noToken.status).toBe(401);
    const wrongToken = await rawRequest(companion.mcpUrl, { headers: { ...headers, authorization: "Bearer nope" }, body: DISCOVER });
    expect(wrongToken.status).toBe(401);
    const foreignOrigin = await rawRequest(companion.mcpUrl, { headers: { ...headers, authorization: `Bearer ${companion.token}`, origin: "https://evil.example" }, body: DISCOVER });
    expect(foreignOrigin.status).toBe(403);
    const foreignHost = await rawRequest(companion.mcpUrl, { headers: { ...headers, authorization: `Bearer ${companion.token}`, host: "evil.example" }, body: DISCOVER });
    expect(foreignHost.status).toBe(403);
  });
});
