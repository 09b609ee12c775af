// Agent: Vercel's AI SDK MCP client (@ai-sdk/mcp). It can answer elicitation
// (onElicitationRequest) but has no sampling, roots, progress or log callbacks, and no default
// request timeout.
import { createMCPClient, ElicitationRequestSchema } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { answerElicitation, serve } from "./protocol.mjs";

let client;

serve({
  async connect({ target, clientName }) {
    const transport = target.url
      ? { type: "http", url: target.url, headers: target.headers ?? {} }
      : new Experimental_StdioMCPTransport({ command: target.command, args: target.args, env: { ...process.env, ...target.env }, stderr: "ignore" });
    client = await createMCPClient({ transport, clientName: clientName ?? "interop-ai-sdk", capabilities: { elicitation: { form: {}, url: {} } } });
    client.onElicitationRequest(ElicitationRequestSchema, (request) => answerElicitation(request.params));
    return { serverInfo: client.serverInfo, protocolVersion: client.initializeResult?.protocolVersion ?? null };
  },
  listTools: async () => (await client.listTools()).tools,
  callTool: async ({ name, arguments: args }) => client.callTool({ name, arguments: args ?? {} }),
  listResources: async () => (await client.listResources()).resources,
  readResource: async ({ uri }) => client.readResource({ uri }),
  listPrompts: async () => (await client.listPrompts()).prompts,
  getPrompt: async ({ name, arguments: args }) => client.getPrompt({ name, arguments: args }),
  complete: async ({ ref, argument }) => client.complete({ ref, argument }),
  async close() {
    await client?.close();
  },
});
