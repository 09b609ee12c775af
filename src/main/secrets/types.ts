// The small interface the app uses for secrets; keytar sits behind it, or memory when it cannot.

export interface SecretStore {
  /** False when no OS keychain is reachable and secrets live in memory for this session only. */
  readonly available: boolean;
  /** One line for the log and the settings view: which backend, or why the keychain is missing. */
  readonly detail: string;
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<boolean>;
  /** Secret names only; values never leave the store in a listing. */
  list(): Promise<string[]>;
  /** Set when there is no keychain and the gateway token is kept in a private file instead. */
  readonly tokenFile?: TokenFile;
}

/** The gateway token's file, and why it could not be used when it could not (the chmod to run). */
export interface TokenFile {
  path: string;
  problem?: string;
}

/** The keychain service every companion secret is filed under. */
export const SECRET_SERVICE = "toolnexus-companion";

/** Names shown in settings and typed on the CLI: letters, digits, `_ . -`; no spaces or `}`. */
export const SECRET_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export function checkSecretName(name: string): void {
  if (!SECRET_NAME.test(name)) {
    throw new Error(`"${name}" is not a valid secret name: use 1-128 letters, digits, "_", "." or "-".`);
  }
}
