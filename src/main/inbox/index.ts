export { Inbox, sourceKey, type InboxOptions, type WaitOptions } from "./inbox";
export { InboxError } from "./errors";
export { inboxWaitFor } from "./wait-for";
