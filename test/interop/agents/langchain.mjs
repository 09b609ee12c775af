// Agent: LangChain's MCP adapters (@langchain/mcp-adapters' MultiServerMCPClient). Its tools are
// LangChain StructuredTools (name, description, a simplified input schema, annotations in
// metadata); it offers progress and log hooks and resources, and no way to answer elicitation,
// sampling or roots (its SDK client is created with no client capabilities).
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { emit, serve } from "./protocol.mjs";

const SERVER = "target";
let client;
let tools;

/**
 * The ToolMessage's content back as MCP content. With standard content blocks LangChain gives a
 * single text block as its JSON (type, source_type, text, structuredContent, meta) in a string.
 */
function asMcpContent(content) {
  if (typeof content === "string") {
    try {
      const block = JSON.parse(content);
      if (block && block.type === "text" && typeof block.text === "string") return [{ type: "text", text: block.text }];
    } catch {
      // Plain text.
    }
    return [{ type: "text", text: content }];
  }
  return (content ?? []).map((block) => (block.type === "text" ? { type: "text", text: block.text } : block));
}

serve({
  async connect({ target }) {
    const connection = target.url
      ? { transport: "http", url: target.url, headers: target.headers ?? {} }
      : { transport: "stdio", command: target.command, args: target.args, env: { ...process.env, ...target.env }, stderr: "ignore" };
    client = new MultiServerMCPClient({
      mcpServers: { [SERVER]: connection },
      prefixToolNameWithServerName: false,
      useStandardContentBlocks: true,
      throwOnLoadError: true,
      onProgress: (progress) => emit({ event: "progress", params: progress }),
      onMessage: (log) => emit({ event: "log", params: log }),
    });
    tools = await client.getTools();
    return { tools: tools.length };
  },
  async listTools() {
    tools = await client.getTools();
    return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.schema, annotations: t.metadata?.annotations }));
  },
  async callTool({ name, arguments: args }) {
    const tool = (tools ?? (await client.getTools())).find((t) => t.name === name) ?? (await client.getTools()).find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    try {
      const message = await tool.invoke({ type: "tool_call", id: "call-1", name, args: args ?? {} });
      return { content: asMcpContent(message.content) };
    } catch (error) {
      // LangChain turns a result with isError into a thrown ToolException.
      return { content: [{ type: "text", text: String(error.message ?? error) }], isError: true };
    }
  },
  // LangChain's own API has no setLevel; its getClient() hands out the SDK client it wraps.
  setLevel: async ({ level }) => (await client.getClient(SERVER)).setLoggingLevel(level),
  listResources: async () => (await client.listResources(SERVER))[SERVER] ?? [],
  readResource: async ({ uri }) => ({ contents: await client.readResource(SERVER, uri) }),
  async close() {
    await client?.close();
  },
});
