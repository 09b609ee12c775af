export { Inbox, sourceKey, type Admission, type InboxOptions, type Quota, type RefusalKind, type WaitOptions } from "./inbox";
export { InboxError } from "./errors";
export { inboxWaitFor } from "./wait-for";
