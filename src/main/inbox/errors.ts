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
