// Long waits, opted into per agent: a gateway call that is still waiting on the person shortly
// before the agent would give up on it (most MCP clients stop waiting after 60 s) returns a result
// saying the person has not answered yet, and how to get the real one: the companion's own tool
// `toolnexus_wait`, listed only to those agents. The call itself goes on (long-waits-call.ts), and
// its result is kept until it is claimed (long-waits-store.ts). Set in the companion's config,
// beside `gateway.elicitation`, and followed live as the file changes:
//
//   { "gateway": { "longWaits": { "default": false, "agents": { "claude-code": true }, "deadlineMs": 50000 } } }
//
// Agents are named as the gateway knows them: the name a per-agent credential carries (the Agents
// view connects agents with one), else their MCP clientInfo.name. Anything else in the section is
// refused with a reason, never guessed.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { isPlainObject } from "../../shared/unknown-value";
import { waitedWords } from "./heartbeat";

export interface LongWaitsSetting {
  /** Whether an agent the map does not name waits long. */
  default: boolean;
  agents: Record<string, boolean>;
  /** How long a call may wait on the person before it returns "not answered yet". */
  deadlineMs: number;
}

/** Under the 60 s most clients wait by default, with room for a loaded machine and the answer's trip. */
export const DEFAULT_DEADLINE_MS = 50_000;
const MIN_DEADLINE_MS = 1_000;
const MAX_DEADLINE_MS = 600_000;

export const NO_LONG_WAITS: LongWaitsSetting = { default: false, agents: {}, deadlineMs: DEFAULT_DEADLINE_MS };

/** The companion's own tool: named like a server's tools would be (`<server>_<name>`), for a server called "toolnexus". */
export const WAIT_TOOL = "toolnexus_wait";

/** The setting from a whole config object, and what in it was not understood. */
export function readLongWaits(config: unknown): { setting: LongWaitsSetting; problems: string[] } {
  const problems: string[] = [];
  const gateway = isPlainObject(config) ? config.gateway : undefined;
  const raw = isPlainObject(gateway) ? gateway.longWaits : undefined;
  if (!isPlainObject(raw)) {
    if (raw !== undefined) problems.push('gateway.longWaits must be an object like { "default": false, "agents": { "name": true }, "deadlineMs": 50000 }');
    return { setting: NO_LONG_WAITS, problems };
  }
  let fallback = false;
  if (raw.default !== undefined) {
    if (typeof raw.default === "boolean") fallback = raw.default;
    else problems.push(`gateway.longWaits.default must be true or false, not ${JSON.stringify(raw.default)}`);
  }
  const agents: Record<string, boolean> = {};
  if (raw.agents !== undefined) {
    if (!isPlainObject(raw.agents)) problems.push("gateway.longWaits.agents must map agent names to true or false");
    else {
      for (const [name, value] of Object.entries(raw.agents)) {
        if (typeof value === "boolean") agents[name] = value;
        else problems.push(`gateway.longWaits.agents.${name} must be true or false, not ${JSON.stringify(value)}`);
      }
    }
  }
  let deadlineMs = DEFAULT_DEADLINE_MS;
  if (raw.deadlineMs !== undefined) {
    const value = raw.deadlineMs;
    if (typeof value === "number" && Number.isInteger(value) && value >= MIN_DEADLINE_MS && value <= MAX_DEADLINE_MS) deadlineMs = value;
    else problems.push(`gateway.longWaits.deadlineMs must be a whole number of milliseconds from ${MIN_DEADLINE_MS} to ${MAX_DEADLINE_MS}, not ${JSON.stringify(value)}; ${DEFAULT_DEADLINE_MS} is used`);
  }
  for (const key of Object.keys(raw)) {
    if (key !== "default" && key !== "agents" && key !== "deadlineMs") problems.push(`gateway.longWaits.${key} is not a setting (default, agents, deadlineMs)`);
  }
  return { setting: { default: fallback, agents, deadlineMs }, problems };
}

/** The agent's deadline when it waits long, else undefined. Named by its own entry, never an inherited property. */
export function longWaitDeadline(setting: LongWaitsSetting, agent: string): number | undefined {
  const on = Object.prototype.hasOwnProperty.call(setting.agents, agent) ? setting.agents[agent] : setting.default;
  return on ? setting.deadlineMs : undefined;
}

/** `toolnexus_wait` as tools/list gives it. */
export function waitToolDefinition(deadlineMs: number): Record<string, unknown> {
  return {
    name: WAIT_TOOL,
    title: "Wait for the person's answer",
    description:
      "Gets the result of a tool call that was still waiting for the person to answer a question in Toolnexus Companion. " +
      `Call it with the call id that call's result gave you. It waits up to ${waitedWords(deadlineMs)}; if the person has still not answered, ` +
      "it says so again and you call it again with the same id. It returns the real result once, and never runs the tool again.",
    inputSchema: {
      type: "object",
      properties: { call: { type: "string", description: "The call id from the result that said the person has not answered yet." } },
      required: ["call"],
      additionalProperties: false,
    },
    annotations: { title: "Wait for the person's answer", readOnlyHint: true, openWorldHint: false },
  };
}

export interface NotYet {
  id: string;
  /** The tool as the agent called it. */
  tool: string;
  /** A question is open now (else the call runs on after the person answered). */
  waitingOnPerson: boolean;
  waitedMs: number;
  /** The tool declares an outputSchema: a result without structuredContent must be an error result then. */
  structured: boolean;
}

/** What the agent gets instead of the result, in words a model and a person both read. */
export function notYetResult(n: NotYet): CallToolResult {
  const state = n.waitingOnPerson
    ? `The person has not answered yet: ${n.tool} is waiting for them to answer a question in Toolnexus Companion (${waitedWords(n.waitedMs)} so far).`
    : `${n.tool} has not finished yet (${waitedWords(n.waitedMs)} so far): the person answered and the tool is still working.`;
  const text =
    `${state} The call is still running and nothing is lost. To get its result, call the tool ${WAIT_TOOL} with {"call": "${n.id}"}: ` +
    `it waits again and returns the real result once it is there. Do not call ${n.tool} again for this: that would run it a second time.`;
  return {
    content: [{ type: "text", text }],
    // A tool with an outputSchema must send structuredContent with a successful result; this is not one.
    isError: n.structured,
    _meta: { "toolnexus/wait": { call: n.id, tool: n.tool, waitingOnPerson: n.waitingOnPerson } },
  };
}

/** `toolnexus_wait` with an id this agent has no call under. */
export function unknownCallResult(id: string): CallToolResult {
  return {
    content: [{ type: "text", text: `No call is waiting under the id ${JSON.stringify(id)}: its result was already returned, it was kept longer than an hour unclaimed, or the id is not this agent's.` }],
    isError: true,
  };
}
