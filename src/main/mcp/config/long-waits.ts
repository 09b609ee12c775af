// Which agents wait long for their person through the gateway (gateway/long-waits.ts), set in the
// companion's config beside `gateway.elicitation` and followed live as the file changes:
//
//   { "gateway": { "longWaits": { "default": false, "agents": { "claude-code": true }, "deadlineMs": 50000 } } }
//
// Agents are named as the gateway knows them: the name a per-agent credential carries (the Agents
// view connects agents with one: claude-code, cursor, …), else their MCP clientInfo.name. Anything
// else in the section is refused with a reason, never guessed. The Agents view's switch writes
// one agent's entry (setLongWait), keeping the file's comments and other keys.
import { applyEdits, format, modify } from "jsonc-parser";
import { isPlainObject } from "../../../shared/unknown-value";
import { parseConfigText } from "../../base/config-text";

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

/**
 * The config text with `agent`'s long waits turned on or off (`gateway.longWaits.agents.<agent>`),
 * the rest as it was. The text must be a config object.
 */
export function setLongWait(text: string, agent: string, on: boolean): string {
  if (text.trim() === "") return `${JSON.stringify({ gateway: { longWaits: { agents: { [agent]: on } } } }, null, 2)}\n`;
  const value = parseConfigText(text, "The MCP config");
  if (!isPlainObject(value)) throw new Error("The MCP config is not an object; it was left as it is.");
  const edits = modify(text, ["gateway", "longWaits", "agents", agent], on, {});
  let out = applyEdits(text, edits);
  for (const edit of edits) out = applyEdits(out, format(out, { offset: edit.offset, length: edit.content.length }, { insertSpaces: true, tabSize: 2, eol: "\n" }));
  return out;
}
