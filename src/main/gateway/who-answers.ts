// Who answers a server's question during an agent's call through the gateway: the person in the
// companion (the default) or the agent itself, when it advertises elicitation. Set per agent in
// the companion's config, beside the servers, and followed live as the file changes:
//
//   { "mcpServers": { … },
//     "gateway": { "elicitation": { "default": "person", "agents": { "my-test-client": "agent" } } } }
//
// Agents are named by their MCP clientInfo.name. Anything else in the section is ignored with a
// reason, never guessed.
import type { WhoAnswers } from "./tool-server";
import { isPlainObject } from "../../shared/unknown-value";

export interface WhoAnswersSetting {
  default: WhoAnswers;
  agents: Record<string, WhoAnswers>;
}

export const PERSON_ANSWERS: WhoAnswersSetting = { default: "person", agents: {} };

function who(value: unknown): WhoAnswers | undefined {
  return value === "person" || value === "agent" ? value : undefined;
}

/** The setting from a whole config object, and what in it was not understood. */
export function readWhoAnswers(config: unknown): { setting: WhoAnswersSetting; problems: string[] } {
  const problems: string[] = [];
  const gateway = isPlainObject(config) ? config.gateway : undefined;
  if (gateway === undefined) return { setting: PERSON_ANSWERS, problems };
  const elicitation = isPlainObject(gateway) ? gateway.elicitation : undefined;
  if (!isPlainObject(elicitation)) {
    if (elicitation !== undefined) problems.push('gateway.elicitation must be an object like { "default": "person", "agents": { "name": "agent" } }');
    return { setting: PERSON_ANSWERS, problems };
  }
  const raw = elicitation;
  const fallback = raw.default === undefined ? "person" : who(raw.default);
  if (!fallback) problems.push(`gateway.elicitation.default must be "person" or "agent", not ${JSON.stringify(raw.default)}`);
  const agents: Record<string, WhoAnswers> = {};
  if (raw.agents !== undefined) {
    if (!isPlainObject(raw.agents)) {
      problems.push("gateway.elicitation.agents must map agent names to \"person\" or \"agent\"");
    } else {
      for (const [name, value] of Object.entries(raw.agents)) {
        const choice = who(value);
        if (choice) agents[name] = choice;
        else problems.push(`gateway.elicitation.agents.${name} must be "person" or "agent", not ${JSON.stringify(value)}`);
      }
    }
  }
  return { setting: { default: fallback ?? "person", agents }, problems };
}

/** What the gateway asks per call: the current setting for this agent. */
export function whoAnswersFor(setting: WhoAnswersSetting, agent: string): WhoAnswers {
  return Object.prototype.hasOwnProperty.call(setting.agents, agent) ? setting.agents[agent] : setting.default;
}
