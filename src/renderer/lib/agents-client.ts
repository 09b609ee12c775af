// The Agents view's reach into main: agents:list, agents:plan and agents:apply as a small client
// the view takes as a prop (component tests pass a fake). A transport without the channels (an
// older main) answers with a refusal the view shows, instead of throwing.
import type { Envelope } from "../../shared/contract";
import type { AgentsApplyArg, AgentsApplyResult, AgentsInvokeMap, AgentsPlan, AgentsPlanArg, AgentView } from "../../shared/agents";

export interface AgentsClient {
  list(): Promise<Envelope<AgentView[]>>;
  /** The planned change, nothing written. */
  plan(arg: AgentsPlanArg): Promise<Envelope<AgentsPlan>>;
  /** Writes the plan whose fingerprint `arg` carries, or refuses. */
  apply(arg: AgentsApplyArg): Promise<Envelope<AgentsApplyResult>>;
}

type AgentsApi = { [C in keyof AgentsInvokeMap]?: (arg: AgentsInvokeMap[C][0]) => Promise<Envelope<AgentsInvokeMap[C][1]>> };

const notServed: Envelope<never> = {
  ok: false,
  error: { code: "agents-unavailable", message: "This companion cannot connect agents yet." },
};

export function agentsClient(api: object): AgentsClient {
  const channels = api as AgentsApi;
  return {
    list: () => channels["agents:list"]?.(undefined) ?? Promise.resolve(notServed),
    plan: (arg) => channels["agents:plan"]?.(arg) ?? Promise.resolve(notServed),
    apply: (arg) => channels["agents:apply"]?.(arg) ?? Promise.resolve(notServed),
  };
}
