// Errors never cross the renderer boundary as throws: every transport turns a handler's outcome
// into an Envelope with a code the page can branch on and a message a person can read. An
// envelope describes the error it is given; the error was scrubbed on its way out of the
// handler (app/egress.ts), once, so nothing here scrubs it again.
import type { Envelope } from "../../shared/contract";
import { errorMessage } from "../../shared/unknown-value";

/** A handler's argument did not have the contract's shape. */
export class ArgumentError extends Error {
  readonly code = "invalid-argument";
  constructor(message: string) {
    super(message);
    this.name = "ArgumentError";
  }
}

/** Expected refusals that are not about the argument's shape (e.g. start-at-login unsupported). */
export class HandlerError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Each problem of the argument in words, when there are several (an answer's fields). */
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = "HandlerError";
  }
}

/** The envelope of a failure: its code, its message, and the details of a HandlerError. */
export function errorEnvelope(error: unknown): Envelope<never> {
  if (error instanceof HandlerError) {
    return { ok: false, error: { code: error.code, message: error.message, ...(error.details.length ? { details: error.details } : {}) } };
  }
  if (error instanceof ArgumentError) return { ok: false, error: { code: error.code, message: error.message } };
  const message = errorMessage(error);
  return { ok: false, error: { code: "failed", message: message || "The operation failed." } };
}

/** Runs one handler call and wraps its result or its failure. */
export async function toEnvelope<T>(run: () => Promise<T> | T): Promise<Envelope<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return errorEnvelope(error);
  }
}
