// OAuth for remote MCP servers: createAuth gives loadMcp its `auth` hook (one session per remote
// server), and sign-in / sign-out by server name. The browser comes back to the callback hub's
// own loopback listener (callback.ts).
import type { SecretStore } from "../secrets/types";
import { CallbackHub } from "./callback";
import { AuthSession } from "./session";
import type { AuthHook, AuthTarget } from "./types";

export interface CreateAuthOptions {
  secrets: SecretStore;
  /** Where the browser comes back: the callback listener's url (startCallbackListener). */
  callbackUrl: string;
  /** The hub the callback is served from; one is made when absent. */
  hub?: CallbackHub;
  /** An https URL of the companion's client ID metadata document, if one is published. */
  clientMetadataUrl?: string;
  clientName?: string;
  /** Every token, refresh token and client secret is told here (the redaction registry). */
  redact?: (value: string) => void;
  fetch?: typeof fetch;
  /** How long a sign-in waits for the browser after the person opened the link. */
  waitMs?: number;
}

export interface CompanionAuth extends AuthHook {
  hub: CallbackHub;
  /** The Servers view's Sign in: asks again; resolves true once connected. */
  signIn(server: string): Promise<boolean>;
  /** Deletes every stored item of the server (tokens, registration, verifier, discovery). */
  signOut(server: string): Promise<void>;
}

export function createAuth(options: CreateAuthOptions): CompanionAuth {
  const hub = options.hub ?? new CallbackHub();
  const sessions = new Map<string, AuthSession>();
  const find = (server: string) => {
    const session = sessions.get(server);
    if (!session) throw new Error(`"${server}" is not a remote server the companion connects to`);
    return session;
  };
  return {
    hub,
    session(target: AuthTarget) {
      const session = new AuthSession(target, {
        store: options.secrets,
        hub,
        redirectUrl: options.callbackUrl,
        clientName: options.clientName ?? "Toolnexus Companion",
        clientMetadataUrl: options.clientMetadataUrl,
        redact: options.redact,
        fetch: options.fetch,
        waitMs: options.waitMs,
      });
      sessions.set(target.name, session);
      return session;
    },
    async signIn(server) {
      const hooks = find(server).connection;
      if (!hooks) throw new Error(`"${server}" has no connection to sign in`);
      return hooks.signIn();
    },
    async signOut(server) {
      await find(server).signOut();
    },
  };
}

export { CallbackHub, startCallbackListener, CALLBACK_PATH, type CallbackListener } from "./callback";
export { SignInDeclined } from "./session";
export { isOAuthSecret } from "./keys";
export type { AuthHook, AuthTarget, PreRegisteredClient, ServerAuthSession } from "./types";
