// Agent: the mcp-use TypeScript client (MCPClient of mcp-use 1.34, installed as mcp-use-client:
// mcp-use 2.x is a server framework only and its client package is not published). It answers
// sampling and elicitation through callbacks, holds roots on its connector, and passes
// notifications (logs, progress) to onNotification.
// Its package root also loads its LangChain agent (an optional peer); the client entry does not.
import { MCPClient } from "mcp-use-client/client";
import { answerElicitation, answerSampling, emit, policy, serve } from "./protocol.mjs";

const SERVER = "target";
let client;
let session;

serve({
  async connect({ target, clientName }) {
    const callbacks = {
      clientInfo: { name: clientName ?? "interop-mcp-use", version: "1.0.0" },
      onElicitation: async (params) => answerElicitation(params),
      onSampling: async (params) => answerSampling(params),
      onNotification: (n) => {
        if (n.method === "notifications/message") emit({ event: "log", params: n.params });
      },
    };
    const server = target.url
      ? { url: target.url, headers: target.headers ?? {}, ...callbacks }
      : { command: target.command, args: target.args, env: { ...process.env, ...target.env }, ...callbacks };
    client = MCPClient.fromDict({ mcpServers: { [SERVER]: server } });
    session = await client.createSession(SERVER);
    // mcp-use answers roots/list from its connector's list (it asks no callback).
    await session.connector.setRoots(policy.roots);
    return { tools: session.tools.length };
  },
  listTools: async () => session.listTools(),
  // timeoutMs "default": the library's own request timeout (its SDK client's 60 s).
  callTool: async ({ name, arguments: args, progress, timeoutMs }) =>
    session.callTool(name, args ?? {}, {
      ...(timeoutMs === "default" ? {} : { timeout: timeoutMs ?? 120_000 }),
      ...(progress ? { onprogress: (p) => emit({ event: "progress", params: { ...p, name } }), resetTimeoutOnProgress: true } : {}),
    }),
  listResources: async () => (await session.listResources()).resources,
  readResource: async ({ uri }) => session.readResource(uri),
  listPrompts: async () => (await session.listPrompts()).prompts,
  getPrompt: async ({ name, arguments: args }) => session.getPrompt(name, args ?? {}),
  complete: async ({ ref, argument }) => session.complete({ ref, argument }),
  // No setLevel in mcp-use's API; its connector's SDK client has one.
  setLevel: async ({ level }) => session.connector.client.setLoggingLevel(level),
  async close() {
    await client?.closeAllSessions();
  },
});
