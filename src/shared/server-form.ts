// The Servers view's "Add a server" and "Edit" form as it crosses the boundary. The page never
// sees a secret: an env or header value the file holds literally and that may be one comes back
// `kept` (no value); sent back `kept` and empty, main keeps the file's value.
import type { ServerView } from "./types";

/** One env variable or header row. */
export interface ServerFormPair {
  name: string;
  /** A `${VAR}` / `${secret:NAME}` reference is shown as written; "" while `kept`. */
  value: string;
  /** The file's own value, not shown; kept unless a new value is typed. */
  kept?: boolean;
  /** Store the typed value in the keychain and write `${secret:NAME}` into the config (headers). */
  keychain?: boolean;
}

export interface ServerFormValue {
  name: string;
  kind: "local" | "remote";
  command: string;
  /** One argument per row. */
  args: string[];
  env: ServerFormPair[];
  cwd: string;
  url: string;
  headers: ServerFormPair[];
}

/** `original`: the name of the server being edited; absent to add a new one. */
export interface ServerSaveArg {
  original?: string;
  value: ServerFormValue;
}

/**
 * `saved: false` when main refused the values: nothing was written. `fieldErrors` is keyed like
 * the form's fields ("name", "command", "args.0", "env.1.name", "headers.0.value", "url", "cwd");
 * "" is about the form as a whole.
 */
export interface ServerSaveResult {
  saved: boolean;
  fieldErrors: Record<string, string[]>;
  /** The secrets written to the keychain for this save, by name. */
  storedSecrets: string[];
  servers: ServerView[];
}
