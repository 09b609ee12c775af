// What the gateway writes to an agent passes through this first: servers echo our request headers
// in results, errors, log messages, even tool descriptions, and none of it may reach an agent
// with a secret in it. The app gives its egress here (app/egress.ts), which scrubs every secret
// the companion knows; the gateway only says which of what it sends is relayed and which is text.
export interface AgentOutbound {
  /**
   * A value from a server on its way to the agent as it is: the tools list, a tools/call result,
   * a resource, prompt or completion, a notification or a request on the call's stream, an
   * error's data. The same value when it holds no secret, a scrubbed copy otherwise.
   */
  relay<T>(value: T): T;
  /** Text the gateway writes around what a server said (a failed call's or an error's message). */
  text(text: string): string;
}
