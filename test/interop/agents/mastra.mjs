// Agent: Mastra's MCP client (@mastra/mcp 2.x on SDK v2, with @mastra/core). It negotiates
// 2026-07-28 where a server offers it, answers elicitation through `inputRequests` (pushed
// elicitation/create and input_required alike), tracks progress and takes server logs through
// `logger`; it has no sampling or roots (its docs: deprecated, not supported) and no completions.
import { MCPClient, getMcpCallToolContent } from "@mastra/mcp";
import { answerElicitation, emit, serve } from "./protocol.mjs";

let mcp;
let server;

function asResult(output) {
  if (output && typeof output === "object" && Array.isArray(output.content)) return output;
  const content = getMcpCallToolContent(output);
  return { ...(content ? { content } : {}), structuredContent: output };
}

serve({
  // timeoutMs "default": Mastra's own request timeout (its SDK client's 60 s).
  async connect({ target, clientName, timeoutMs }) {
    // Mastra names its SDK client after the server's key in `servers`: the key is the clientInfo.name.
    server = clientName ?? "interop-mastra";
    const common = {
      ...(timeoutMs === "default" ? {} : { timeout: timeoutMs ?? 120_000 }),
      enableProgressTracking: true,
      onToolError: "return",
      capabilities: { elicitation: { form: {}, url: {} } },
      inputRequests: async ({ params }) => answerElicitation(params),
      logger: (entry) => {
        // Mastra routes a server's notifications/message through its own logger, tagged so.
        if (entry.message.endsWith("[MCP SERVER LOG]")) emit({ event: "log", params: { level: entry.level, data: entry.details?.data } });
      },
    };
    const definition = target.url
      ? { url: new URL(target.url), requestInit: { headers: target.headers ?? {} }, ...common }
      : { command: target.command, args: target.args, env: { ...process.env, ...target.env }, stderr: "ignore", ...common };
    mcp = new MCPClient({ id: `interop-${process.pid}`, servers: { [server]: definition } });
    await mcp.progress.onUpdate(server, (params) => emit({ event: "progress", params }));
    const tools = (await mcp.listToolDefinitions())[server] ?? {};
    return { tools: Object.keys(tools).length };
  },
  async listTools() {
    const definitions = (await mcp.listToolDefinitions())[server] ?? {};
    // Each definition carries the connection's server info and instructions: the companion's
    // through the gateway, the server's directly. That is not part of the tool; leave it out.
    return Object.entries(definitions).map(([name, d]) => {
      const { server: _connection, ...tool } = JSON.parse(JSON.stringify(d));
      return { name, ...tool };
    });
  },
  async callTool({ name, arguments: args }) {
    const tool = (await mcp.listToolsets())[server]?.[name];
    if (!tool) throw new Error(`no tool ${name}`);
    return asResult(await tool.execute(args ?? {}, {}));
  },
  // Mastra asks for server logs itself (serverLogLevel, default "info"); it has no setLevel call.
  setLevel: async () => ({}),
  listResources: async () => (await mcp.resources.list())[server] ?? [],
  readResource: async ({ uri }) => mcp.resources.read(server, uri),
  listPrompts: async () => (await mcp.prompts.list())[server] ?? [],
  getPrompt: async ({ name, arguments: args }) => mcp.prompts.get({ serverName: server, name, args }),
  async close() {
    await mcp?.disconnect();
  },
});
