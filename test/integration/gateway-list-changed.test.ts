// When a server's tool set changes, every agent on the gateway hears notifications/tools/list_changed
// and the next tools/list shows the change. The server is a real MCP server over streamable HTTP,
// run in this process so the test can add a tool to it.
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/server";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { connectAgent, startCompanion, textOf, until, type Companion } from "./gateway-harness";

let http: HttpServer;
let companion: Companion;
const servers: McpServer[] = [];

function build(): McpServer {
  const server = new McpServer({ name: "dynamic", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  server.registerTool("first", { description: "the first tool", inputSchema: z.object({}) }, async () => ({
    content: [{ type: "text", text: "first!" }],
  }));
  servers.push(server);
  return server;
}

beforeAll(async () => {
  const transports = new Map<string, NodeStreamableHTTPServerTransport>();
  http = createServer(async (req, res) => {
    const sid = req.headers["mcp-session-id"];
    let transport = typeof sid === "string" ? transports.get(sid) : undefined;
    if (!transport) {
      transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, transport!),
      });
      await build().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()));
  const port = (http.address() as { port: number }).port;
  companion = await startCompanion({ config: { mcpServers: { dynamic: { type: "http", url: `http://127.0.0.1:${port}/mcp`, protocol: "legacy" } } } });
});
afterAll(async () => {
  await companion?.close();
  await new Promise<void>((r) => {
    http.closeAllConnections();
    http.close(() => r());
  });
});

describe("gateway: tool list changes", () => {
  it("tells connected agents and lists the new tool", async () => {
    expect(companion.source.servers().find((s) => s.name === "dynamic")?.state).toBe("connected");
    let changed = 0;
    const agent = await connectAgent(companion, "watcher");
    try {
      agent.setNotificationHandler("notifications/tools/list_changed", () => {
        changed += 1;
      });
      expect((await agent.listTools()).tools.map((t) => t.name)).toEqual(["dynamic_first"]);
      for (const server of servers) {
        server.registerTool("second", { description: "added later", inputSchema: z.object({}) }, async () => ({
          content: [{ type: "text", text: "second!" }],
        }));
      }
      await until(() => changed > 0, 10_000);
      expect((await agent.listTools()).tools.map((t) => t.name).sort()).toEqual(["dynamic_first", "dynamic_second"]);
      expect(textOf(await agent.callTool({ name: "dynamic_second", arguments: {} }))).toBe("second!");
    } finally {
      await agent.close();
    }
  });
});
