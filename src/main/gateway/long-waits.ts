// Long waits, opted into per agent (the setting: mcp/config/long-waits.ts): a gateway call that is
// still waiting on the person shortly before the agent would give up on it (most MCP clients stop
// waiting after 60 s) returns a result saying the person has not answered yet, and how to get the
// real one: the companion's own tool `toolnexus_wait`, listed only to those agents. The call itself
// goes on (long-waits-call.ts), and its result is kept until it is claimed (long-waits-store.ts).
// Here: the tool and the words the agent reads.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { waitedWords } from "./heartbeat";

/** The companion's own tool: named like a server's tools would be (`<server>_<name>`), for a server called "toolnexus". */
export const WAIT_TOOL = "toolnexus_wait";

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
