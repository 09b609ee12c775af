// What a server's connection passes on to the gateway beyond tools: the notifications an agent
// may want (forwarded through SourceEvent "notification"), and the words of the error a server
// gets when it asks something (sampling, roots) that no agent in flight can answer.

/** Server notifications the gateway relays to agents (tools/list_changed has its own path). */
export const forwardedNotifications = [
  "notifications/resources/updated",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
  "notifications/message",
] as const;

export const NO_AGENT_CAN_ANSWER =
  "no agent that can answer this is calling this server now (the request is passed to the agent whose tool call is in flight, when it advertises the capability)";
