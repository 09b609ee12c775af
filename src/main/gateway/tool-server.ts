// One MCP server per agent session: it lists the McpSource's tools under their uniform names and
// forwards each tools/call, carrying the agent's name so any question the call triggers names
// both the server that asks and the agent it asks for.
import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import type { CallToolResult, RequestId } from "@modelcontextprotocol/server";
import { LinkedAbort } from "../mcp/linked-abort";
import type { McpSource } from "../mcp/types";
import { secretScrubber } from "../secrets/scrub";

/** tools/call params as the agent sent them. */
export interface CallParams {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: { progressToken?: string | number };
}

export interface CallOptions {
  /** The agent's own cancel of this call. */
  signal?: AbortSignal;
  /** Sends a notification on the call's stream (progress); without it progress is not asked for. */
  notify?: (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;
}

export interface ToolServer {
  server: Server;
  /** Forwards one tools/call; `id` is the agent's request id (abortCall uses it). */
  call(params: CallParams, id: RequestId, options?: CallOptions): Promise<CallToolResult>;
  /** The agent's `clientInfo.name`, once it has initialized. */
  agent(): string | undefined;
  /** Aborts one in-flight call (its HTTP response went away, or the agent cancelled it). */
  abortCall(id: RequestId, reason?: string): void;
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
  const calls = new Map<RequestId, LinkedAbort>();
  const agent = () => server.getClientVersion()?.name;

  server.setRequestHandler("tools/list", async () => ({
    tools: source.tools.map((tool) => ({
      name: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      description: tool.description,
      inputSchema: { type: "object" as const, ...tool.inputSchema },
    })),
  }));

  /**
   * One forwarded tools/call. The agent's cancel (`signal`) and a dropped connection or ended
   * session (abortCall/abortAll) both abort it, which withdraws any question it raised.
   */
  async function call(params: CallParams, id: RequestId, options: CallOptions = {}): Promise<CallToolResult> {
    const { name, arguments: args } = params;
    const tool = source.tools.find((t) => t.name === name);
    if (!tool) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${name}": no connected server offers it (see tools/list).`);
    }
    // A plain listener, not AbortSignal.any: that costs tens of microseconds per call in Node 20.
    const abort = new LinkedAbort([options.signal]);
    calls.set(id, abort);
    const signal = abort.signal;
    const progressToken = params._meta?.progressToken;
    const notify = options.notify;
    // Progress goes out in order and before the result: the result closes the call's stream, and
    // a notification still queued behind it would be lost.
    let sent: Promise<void> = Promise.resolve();
    const onprogress =
      progressToken === undefined || !notify
        ? undefined
        : (progress: { progress: number; total?: number; message?: string }) => {
            const progressParams = { progressToken, ...progress };
            sent = sent.then(() => notify({ method: "notifications/progress", params: progressParams })).catch(() => {});
          };
    try {
      // No timeout here: the call lasts as long as the server (and the person it asks) needs.
      const out = await tool.execute(args ?? {}, { signal, agent: agent() ?? "agent", onprogress });
      await sent;
      // A server may echo our request headers back in its answer; the agent never gets them.
      const raw = out.metadata?.result as CallToolResult | undefined;
      if (raw && Array.isArray(raw.content)) return secretScrubber.scrubValue(raw);
      return { content: [{ type: "text", text: secretScrubber.scrub(out.output) }], isError: out.isError };
    } catch (error) {
      if (signal.aborted) throw error;
      const message = secretScrubber.scrub(error instanceof Error ? error.message : String(error));
      log(`gateway: ${name} failed for ${agent() ?? "agent"}: ${message}`);
      return failure(`The companion could not run ${name}: ${message}`);
    } finally {
      abort.dispose();
      if (calls.get(id) === abort) calls.delete(id);
    }
  }

  // The agent's notifications/cancelled aborts ctx.mcpReq.signal.
  server.setRequestHandler("tools/call", (request, ctx) =>
    call(request.params, ctx.mcpReq.id, {
      signal: ctx.mcpReq.signal,
      notify: (notification) => ctx.mcpReq.notify(notification as Parameters<typeof ctx.mcpReq.notify>[0]),
    }),
  );

  return {
    server,
    agent,
    call,
    abortCall(id, reason = "the agent's connection closed") {
      calls.get(id)?.abort(new Error(reason));
    },
    abortAll() {
      for (const abort of calls.values()) abort.abort(new Error("the agent's session ended"));
      calls.clear();
    },
  };
}
