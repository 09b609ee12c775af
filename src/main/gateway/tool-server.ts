// One MCP server per agent session: it lists the McpSource's tools under their uniform names and
// forwards each tools/call, carrying the agent's name so any question the call triggers names
// both the server that asks and the agent it asks for.
import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import type { CallToolResult, RequestId } from "@modelcontextprotocol/server";
import type { McpSource } from "../mcp/types";

export interface ToolServer {
  server: Server;
  /** The agent's `clientInfo.name`, once it has initialized. */
  agent(): string | undefined;
  /** Aborts one in-flight call (its HTTP response went away). */
  abortCall(id: RequestId): void;
  /** Aborts every in-flight call (the session ended). */
  abortAll(): void;
}

export interface ToolServerOptions {
  source: McpSource;
  version: string;
  log: (line: string) => void;
}

const INSTRUCTIONS =
  "Tools of the MCP servers configured in Toolnexus Companion, named <server>_<tool>. " +
  "A call may wait while the companion asks its person a question; it completes when they answer.";

function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

export function createToolServer(options: ToolServerOptions): ToolServer {
  const { source, log } = options;
  // The low-level Server (not McpServer): the tool set belongs to the source and changes with it,
  // and results must pass through untouched (structuredContent, isError, content as sent).
  const server = new Server(
    { name: "toolnexus-companion", version: options.version },
    { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS },
  );
  const calls = new Map<RequestId, AbortController>();
  const agent = () => server.getClientVersion()?.name;

  server.setRequestHandler("tools/list", async () => ({
    tools: source.tools.map((tool) => ({
      name: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      description: tool.description,
      inputSchema: { type: "object" as const, ...tool.inputSchema },
    })),
  }));

  server.setRequestHandler("tools/call", async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const tool = source.tools.find((t) => t.name === name);
    if (!tool) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${name}": no connected server offers it (see tools/list).`);
    }
    const local = new AbortController();
    calls.set(ctx.mcpReq.id, local);
    // The agent's notifications/cancelled aborts ctx.mcpReq.signal; a dropped connection aborts ours.
    const signal = AbortSignal.any([ctx.mcpReq.signal, local.signal]);
    const progressToken = request.params._meta?.progressToken;
    // Progress goes out in order and before the result: the result closes the call's stream, and
    // a notification still queued behind it would be lost.
    let sent: Promise<void> = Promise.resolve();
    const onprogress =
      progressToken === undefined
        ? undefined
        : (progress: { progress: number; total?: number; message?: string }) => {
            const params = { progressToken, ...progress };
            sent = sent.then(() => ctx.mcpReq.notify({ method: "notifications/progress", params })).catch(() => {});
          };
    try {
      // No timeout here: the call lasts as long as the server (and the person it asks) needs.
      const out = await tool.execute(args ?? {}, { signal, agent: agent() ?? "agent", onprogress });
      await sent;
      const raw = out.metadata?.result as CallToolResult | undefined;
      if (raw && Array.isArray(raw.content)) return raw;
      return { content: [{ type: "text", text: out.output }], isError: out.isError };
    } catch (error) {
      if (signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      log(`gateway: ${name} failed for ${agent() ?? "agent"}: ${message}`);
      return failure(`The companion could not run ${name}: ${message}`);
    } finally {
      calls.delete(ctx.mcpReq.id);
    }
  });

  return {
    server,
    agent,
    abortCall(id) {
      calls.get(id)?.abort(new Error("the agent's connection closed"));
    },
    abortAll() {
      for (const controller of calls.values()) controller.abort(new Error("the agent's session ended"));
      calls.clear();
    },
  };
}
