// A tool call in flight on a connection, as the server's requests see it (server-requests.ts):
// whose it is, and the questions raised while it was open; and what a question learns of the calls
// it may belong to (who asks, which tool) and tells them (it is open, it ended).
import type { LinkedAbort } from "../../base/linked-abort";
import type { ExecuteContext } from "../types";
import type { IdleTimer } from "./idle-timer";

export interface ActiveCall {
  agent?: string;
  /** Whose roots the server must see during this call: the agent's session, or "config". */
  rootsKey: string;
  /** The tool called, by its name on the server: a question raised during it names it. */
  tool: string;
  /** The caller's hooks (gateway): who answers the server's requests during this call. */
  ctx: ExecuteContext;
  timer: IdleTimer;
  /** Questions raised while this call was in flight; each ends when all its calls have ended. */
  questions: Set<Question>;
}

export interface Question {
  calls: Set<ActiveCall>;
  /** Follows the server's cancel; aborted by us when orphaned or when the connection ends. */
  abort: LinkedAbort;
}

/**
 * Tells each call a question for the person was raised during (ExecuteContext.onquestion) that it
 * is open; returns what tells the same calls it ended, even those that have ended since. A hook's
 * failure is the caller's own and never reaches the question.
 */
export function announceQuestion(calls: Iterable<ActiveCall>): () => void {
  const told = [...calls].map((call) => call.ctx.onquestion).filter((hook): hook is (open: boolean) => void => hook !== undefined);
  const tell = (open: boolean) => {
    for (const hook of told) {
      try {
        hook(open);
      } catch {
        // The gateway's own bookkeeping; the question goes on regardless.
      }
    }
  };
  tell(true);
  return () => tell(false);
}

/**
 * Who a question is asked for: the agent of each call it may belong to. When the wire does not
 * say which (two calls open on one stdio server), every one of them is named: "a or b".
 */
export function agentsOf(calls: Iterable<ActiveCall>): string | undefined {
  const agents = [...new Set([...calls].map((c) => c.agent).filter((a): a is string => !!a))];
  return agents.length > 0 ? agents.join(" or ") : undefined;
}

/** The tool a pushed question belongs to, when every call in flight is of that one tool. */
export function onlyTool(calls: Iterable<ActiveCall>): string | undefined {
  let tool: string | undefined;
  for (const call of calls) {
    if (tool !== undefined && call.tool !== tool) return undefined;
    tool = call.tool;
  }
  return tool;
}
