import { HandlerError } from "../rpc/envelope";

/** A refused answer: the code says which rule, the message says it in words. */
export class InboxError extends HandlerError {
  constructor(
    override readonly code: "unknown-id" | "already-answered" | "invalid-answer" | "closed",
    message: string,
    details: string[] = [],
  ) {
    super(code, message, details);
    this.name = "InboxError";
  }
}

/** The refusal for an id the Inbox does not hold, one wording wherever a question is looked up. */
export function unknownQuestion(id: string): InboxError {
  return new InboxError("unknown-id", `No pending question has id "${id}": it was answered, withdrawn, or never asked.`);
}
