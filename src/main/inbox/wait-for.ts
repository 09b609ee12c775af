// The Inbox as the bridge's `waitFor`: the one adapter between an MCP elicitation's context
// (server, agent, abort signal) and the Inbox's asker and withdrawal.
import type { Answer, Request } from "../../shared/types";
import type { Inbox } from "./inbox";

/** What the bridge tells the resolver about an elicitation, besides the Request itself. */
export interface ElicitationContext {
  /** The configured server name that asks. */
  server: string;
  /** The agent whose call triggered it, when the call came through the gateway. */
  agent?: string;
  /** The tool whose call asked, when the calls in flight are all of one tool. */
  tool?: string;
  /** Aborts when the server cancels its elicitation or goes away: withdraw the question. */
  signal: AbortSignal;
  /**
   * The agent is answering this question itself (gateway, "who answers": the agent). The
   * question is still shown and recorded; `answer` resolves with the agent's answer (settle it
   * as the agent's) or undefined when the agent could not answer (the person is asked).
   */
  agentAnswer?: { agent: string; answer: Promise<Answer | undefined> };
}

/** The resolver the bridge calls; the Inbox provides the app's only one. */
export type WaitFor = (request: Request, ctx: ElicitationContext) => Promise<Answer>;


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
