// The Inbox as the bridge's `waitFor`: the one adapter between an MCP elicitation's context
// (server, agent, abort signal) and the Inbox's asker and withdrawal.
import type { WaitFor } from "../mcp/types";
import type { Inbox } from "./inbox";

export function inboxWaitFor(inbox: Inbox): WaitFor {
  return (request, ctx) =>
    inbox.waitFor(request, {
      source: {
        server: ctx.server,
        ...(ctx.agent !== undefined ? { agent: ctx.agent } : {}),
        ...(ctx.tool !== undefined ? { tool: ctx.tool } : {}),
      },
      signal: ctx.signal,
      ...(ctx.agentAnswer ? { answeredBy: ctx.agentAnswer } : {}),
    });
}
