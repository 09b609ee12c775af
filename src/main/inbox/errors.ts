/** A refused answer: the code says which rule, the message says it in words. */
export class InboxError extends Error {
  constructor(
    readonly code: "unknown-id" | "already-answered" | "invalid-answer" | "closed",
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = "InboxError";
  }
}
