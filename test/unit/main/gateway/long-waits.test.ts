import { describe, expect, it } from "vitest";
import { notYetResult, waitToolDefinition, WAIT_TOOL } from "../../../../src/main/gateway/long-waits";

describe("long waits' words", () => {
  it("words the tool and the 'not yet' result for a model and a person", () => {
    const tool = waitToolDefinition(50_000);
    expect(tool.name).toBe(WAIT_TOOL);
    expect(tool.description).toMatch(/waits up to 50 s/);
    const plain = notYetResult({ id: "tnw_abc", tool: "srv_ask", waitingOnPerson: true, waitedMs: 50_000, structured: false });
    expect(plain.isError).toBe(false);
    expect(plain.content[0]).toEqual({
      type: "text",
      text:
        "The person has not answered yet: srv_ask is waiting for them to answer a question in Toolnexus Companion (50 s so far). The call is still running and nothing is lost. " +
        'To get its result, call the tool toolnexus_wait with {"call": "tnw_abc"}: it waits again and returns the real result once it is there. Do not call srv_ask again for this: that would run it a second time.',
    });
    // A tool with an outputSchema needs structuredContent on success: "not yet" is an error result there.
    expect(notYetResult({ id: "tnw_abc", tool: "srv_ask", waitingOnPerson: false, waitedMs: 61_000, structured: true }).isError).toBe(true);
  });
});
