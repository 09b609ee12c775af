// What a remote server's connection needs from OAuth (src/main/auth), and what the config says.
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import type { WaitFor } from "../inbox/wait-for";

/** A client registered with the server's authorization server beforehand (config `oauth`). */
export interface PreRegisteredClient {
  clientId: string;
  clientSecret?: string;
  /** Space-separated on the wire; asked for when the server's challenge names none. */
  scopes?: string[];
}

export interface AuthTarget {
  /** The configured server name, shown in the sign-in question. */
  name: string;
  url: string;
  oauth?: PreRegisteredClient;
}

export interface SignInOptions {
  waitFor: WaitFor;
  /** Redeems the callback's code on the transport that was refused (`transport.finishAuth`); else the session's own auth(). */
  finish?(params: URLSearchParams): Promise<void>;
  /** The agent whose call needs the sign-in, named on the question. */
  agent?: string;
  signal?: AbortSignal;
}

/** What the connection tells the session it can do, so `signIn(name)` from a view reaches it. */
export interface AuthConnectionHooks {
  /** Start (or join) a sign-in now; resolves true once the server is connected. */
  signIn(): Promise<boolean>;
  /** Every stored item is gone: drop the connection, show `needs-sign-in`. */
  signedOut(): Promise<void>;
}

/** One remote server's OAuth state, the same across that server's reconnects. */
export interface ServerAuthSession {
  readonly provider: OAuthClientProvider;
  /** The authorization URL the last refused request produced (consumed by signIn). */
  readonly pendingAuthorization: URL | undefined;
  /** The authorization server's host, for status lines; undefined before discovery. */
  readonly authorizationHost: string | undefined;
  /** Asks the person; resolves once tokens are stored, rejects with why not (never a token). */
  signIn(options: SignInOptions): Promise<void>;
  attach(hooks: AuthConnectionHooks): void;
  /** Whether tokens are stored for the server: only then is there anything to sign out of. */
  signedIn(): Promise<boolean>;
}

/** The `auth` hook of LoadOptions: one session per remote server. */
export interface AuthHook {
  session(target: AuthTarget): ServerAuthSession;
}
