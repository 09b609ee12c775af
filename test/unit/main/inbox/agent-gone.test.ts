// The Inbox says why a question was withdrawn: an asker that aborts with AgentGone (the agent it
// was asked for disconnected) is "agent-gone" with "<agent> disconnected"; any other abort stays
// "aborted" with its own words.
import { describe, expect, it } from "vitest";
import { AgentGone, Inbox } from "../../../../src/main/inbox";
import type { InboxEvent } from "../../../../src/shared/types";

function setup() {
  const inbox = new Inbox();
  const events: InboxEvent[] = [];
  inbox.on((e) => events.push(e));
  return { inbox, events };
}

describe("Inbox: an agent that went away", () => {
  it("AgentGone withdraws as agent-gone, named, and answers the asker cancelled", async () => {
    const { inbox, events } = setup();
    const controller = new AbortController();
    const answer = inbox.waitFor({ id: "q1", kind: "input", prompt: "Branch?" }, { source: { server: "ci", agent: "cursor" }, signal: controller.signal });
    controller.abort(new AgentGone("cursor"));
    expect(await answer).toEqual({ id: "q1", ok: false, reason: "cancelled" });
    expect(events.at(-1)).toEqual({ type: "withdrawn", id: "q1", reason: "agent-gone", message: "cursor disconnected" });
    expect(inbox.list()).toEqual([]);
  });

  it("any other abort stays aborted, in its own words", async () => {
    const { inbox, events } = setup();
    const controller = new AbortController();
    const answer = inbox.waitFor({ id: "q2", kind: "input", prompt: "Branch?" }, { source: { server: "ci" }, signal: controller.signal });
    controller.abort(new Error("the server stopped waiting"));
    await answer;
    expect(events.at(-1)).toEqual({ type: "withdrawn", id: "q2", reason: "aborted", message: "the server stopped waiting" });
  });
});
