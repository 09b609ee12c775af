export { Inbox, sourceKey, type Admission, type AutoAnswer, type AutoAnswerHook, type InboxOptions, type Quota, type RefusalKind, type WaitOptions } from "./inbox";
export { InboxError } from "./errors";
export { AgentGone } from "./agent-gone";
export { inboxWaitFor, type ElicitationContext, type WaitFor } from "./wait-for";
