// The abort reason for "the agent went away": its gateway session ended, the connection carrying
// its call closed, or its /v1/requests long-poll dropped. It travels as an AbortSignal's reason
// from the gateway through the backend call to the question, so the Inbox can withdraw that
// agent's questions with a reason the page words as "<agent> disconnected" instead of a generic
// "the server withdrew this question".
export class AgentGone extends Error {
  constructor(readonly agent: string) {
    super(`${agent} disconnected`);
    this.name = "AgentGone";
  }
}
