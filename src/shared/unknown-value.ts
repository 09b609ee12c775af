// Reading a value typed `unknown` — parsed JSON, a page's argument, a thrown thing — the one way
// both sides of the app do it (main, the forms code, the preload bridge).

/** An object that is not null and not an array: what JSON calls an object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value itself when it is a plain object, else an empty one (fields then read as absent). */
export function asPlainObject(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

/** What a thrown value says: an Error's message, anything else as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A thrown value as an Error: itself when it is one, else an Error carrying its text. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
