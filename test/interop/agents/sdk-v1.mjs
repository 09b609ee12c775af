// Agent: the official TypeScript SDK v1 client (@modelcontextprotocol/sdk), with every client
// capability it has: form and URL elicitation, sampling, roots, progress and logs.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { answerElicitation, answerRoots, answerSampling, emit, serve } from "./protocol.mjs";

let client;

serve({
  async connect({ target, clientName }) {
    client = new Client(
      { name: clientName ?? "interop-sdk-v1", version: "1.0.0" },
      { capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } } },
    );
    client.setRequestHandler(ElicitRequestSchema, (request) => answerElicitation(request.params));
    client.setRequestHandler(CreateMessageRequestSchema, (request) => answerSampling(request.params));
    client.setRequestHandler(ListRootsRequestSchema, () => answerRoots());
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => emit({ event: "log", params: n.params }));
    const transport = target.url
      ? new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.headers ?? {} } })
      : new StdioClientTransport({ command: target.command, args: target.args, env: { ...process.env, ...target.env }, stderr: "ignore" });
    await client.connect(transport);
    return { protocolVersion: transport.protocolVersion ?? null, serverInfo: client.getServerVersion() };
  },
  async listTools() {
    return (await client.listTools()).tools;
  },
  // timeoutMs "default": the library's own request timeout (60 s), as an application that sets none gets.
  async callTool({ name, arguments: args, progress, timeoutMs }) {
    return client.callTool({ name, arguments: args }, undefined, {
      ...(progress ? { onprogress: (p) => emit({ event: "progress", params: { ...p, name } }), resetTimeoutOnProgress: true } : {}),
      ...(timeoutMs === "default" ? {} : { timeout: timeoutMs ?? 120_000 }),
    });
  },
  listResources: async () => (await client.listResources()).resources,
  readResource: async ({ uri }) => client.readResource({ uri }),
  listPrompts: async () => (await client.listPrompts()).prompts,
  getPrompt: async ({ name, arguments: args }) => client.getPrompt({ name, arguments: args }),
  complete: async ({ ref, argument }) => client.complete({ ref, argument }),
  setLevel: async ({ level }) => client.setLoggingLevel(level),
  async close() {
    await client?.close();
  },
});
