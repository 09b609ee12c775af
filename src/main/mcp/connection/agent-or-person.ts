// A server's elicitation that the calling agent answers (its person chose "the agent answers"),
// raced against the person in the companion, who still sees the question and has it recorded.
import type { Answer } from "../../../shared/types";
import { LinkedAbort } from "../../base/linked-abort";
import { answerToElicitResult, elicitResultToAnswer, type elicitationToRequest } from "../elicit";
import type { AgentRequest } from "../types";
import type { WaitFor } from "../../inbox/wait-for";
import { errorMessage } from "../../../shared/unknown-value";


/**
 * The agent's result goes to the server as the agent gave it, and settles the question as the
 * agent's. If the agent fails, the question stays with the person; if the person answers first
 * (or a rule does), the agent's request is cancelled and theirs is sent.
 */
export async function elicitViaAgent(
  byAgent: AgentRequest,
  waitFor: WaitFor,
  request: ReturnType<typeof elicitationToRequest>,
  params: Record<string, unknown>,
  ctx: Parameters<WaitFor>[1],
  log: (line: string) => void,
): Promise<Record<string, unknown>> {
  const agentAbort = new LinkedAbort([ctx.signal]);
  const personAbort = new LinkedAbort([ctx.signal]);
  const agent = ctx.agent ?? "the agent";
  /** The agent's result, once it answered with one the server can take. */
  let agentResult: Record<string, unknown> | undefined;
  const fromAgent = byAgent(params, agentAbort.signal).then(
    (result): Answer | undefined => {
      const answer = elicitResultToAnswer(request.id, result);
      if (answer) agentResult = result;
      return answer;
    },
    (error): undefined => {
      if (!agentAbort.signal.aborted) log(`${ctx.server}: ${agent} did not answer an elicitation (${errorMessage(error)}); asking the person`);
      return undefined;
    },
  );
  try {
    const fromPerson = waitFor(request, { ...ctx, signal: personAbort.signal, agentAnswer: { agent, answer: fromAgent } });
    fromPerson.catch(() => {});
    // The agent's answer wins only if it comes; a failed agent leaves the person's question open.
    const agentAnswered = fromAgent.then((answer) => (answer ? "agent" : new Promise<never>(() => {})));
    const first = await Promise.race([agentAnswered, fromPerson]);
    // The Inbox settles on the agent's answer before this runs (it is told first), so whichever
    // promise won the race, an agent that answered is the one that answered. A person's answer
    // comes without I/O from the agent in between, so it is never mistaken for the agent's.
    if (agentResult) {
      // A resolver that does not settle on the agent's answer withdraws the question instead.
      personAbort.abort(new Error(`${agent} answered it`));
      return agentResult;
    }
    agentAbort.abort(new Error("the person answered it in the companion"));
    return answerToElicitResult(first as Answer) as Record<string, unknown>;
  } finally {
    agentAbort.dispose();
    personAbort.dispose();
  }
}
