// `toolnexus-companion token`: prints the gateway token so it can be pasted into an agent config.
import { complainer, errText, out } from "./print";
import { resolveToken } from "./resolve-token";
import { agentArg } from "./agent-arg";
import { agentCredential } from "../http/agent-credential";

export async function runToken(args: string[]): Promise<number> {
  const agent = agentArg(args);
  if (agent instanceof Error) {
    errText(`toolnexus-companion token: ${agent.message}\nUsage: toolnexus-companion token [--agent NAME]\n`);
    return 2;
  }
  const { token, why } = await resolveToken();
  if (!token) {
    complainer()(`no gateway token: ${why}.`);
    return 1;
  }
  out(agent ? agentCredential(token, agent) : token);
  return 0;
}
