// One remote server's sign-in: the provider that keeps its credentials, the authorization URL the
// SDK produced when the server refused us, and the question that asks the person to open it.
// The question is an `authorization` Request through the app's one waitFor (the Inbox); the
// person's accept means "I opened it" (the view opens the URL on that click, never before). The
// callback decides: it resolves the sign-in and withdraws the question if it is still shown.
import { SIGN_IN_ID_PREFIX } from "../../shared/words";
import { randomUUID } from "node:crypto";
import { auth } from "@modelcontextprotocol/client";
import { StoredOAuthProvider } from "./provider";
import type { CallbackHub } from "./callback";
import type { AuthConnectionHooks, AuthTarget, ServerAuthSession, SignInOptions } from "./types";
import type { SecretStore } from "../secrets/types";

/** How long a sign-in waits for the browser after the person said they opened the link. */
const SIGN_IN_WAIT_MS = 10 * 60_000;

/** The person said no (or dismissed the question): not an error worth a stack. */
export class SignInDeclined extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SignInDeclined";
  }
}

export interface SessionOptions {
  store: SecretStore;
  hub: CallbackHub;
  redirectUrl: string;
  clientName: string;
  clientMetadataUrl?: string;
  redact?: (value: string) => void;
  fetch?: typeof fetch;
  waitMs?: number;
}

/** An OAuth error code from the callback: a short token, shown as is; anything else is not shown. */
function errorCode(value: string | null): string {
  return value && /^[A-Za-z0-9_.-]{1,64}$/.test(value) ? value : "an error";
}

export class AuthSession implements ServerAuthSession {
  readonly provider: StoredOAuthProvider;
  private pending?: URL;
  private hooks?: AuthConnectionHooks;

  constructor(
    readonly target: AuthTarget,
    private readonly options: SessionOptions,
  ) {
    this.provider = new StoredOAuthProvider({
      store: options.store,
      serverUrl: target.url,
      redirectUrl: options.redirectUrl,
      clientName: options.clientName,
      preRegistered: target.oauth,
      clientMetadataUrl: options.clientMetadataUrl,
      redact: options.redact,
      fetch: options.fetch,
      onAuthorizationUrl: (url) => {
        this.pending = url;
      },
    });
  }

  get pendingAuthorization(): URL | undefined {
    return this.pending;
  }

  get authorizationHost(): string | undefined {
    return this.pending?.host;
  }

  attach(hooks: AuthConnectionHooks): void {
    this.hooks = hooks;
  }

  get connection(): AuthConnectionHooks | undefined {
    return this.hooks;
  }

  async signIn({ waitFor, finish, agent, signal }: SignInOptions): Promise<void> {
    // Asked from the Servers view with no refused request behind it: refresh if a refresh token
    // is stored, else the SDK makes a fresh authorization URL.
    if (!this.pending && (await this.authorize()) === "AUTHORIZED") return;
    const url = this.pending;
    if (!url) throw new Error("the server gave no authorization URL to sign in with");
    this.pending = undefined;
    const state = url.searchParams.get("state");
    if (!state || state !== this.provider.expectedState) throw new Error("the authorization URL does not carry the state this sign-in made");

    const expectation = this.options.hub.expect(state, this.target.name);
    const question = new AbortController();
    const onAbort = () => question.abort(signal?.reason ?? new Error("the sign-in is no longer needed"));
    signal?.addEventListener("abort", onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const answered = waitFor(
        {
          // The prefix lets every view call it a sign-in, not a plain link (src/shared/words.ts).
          id: `${SIGN_IN_ID_PREFIX}${randomUUID()}`,
          kind: "authorization",
          prompt: `Sign in to "${this.target.name}": its authorization server ${url.host} asks you to sign in. Open the link, sign in there, and come back.`,
          url: url.href,
        },
        { server: this.target.name, agent, signal: question.signal },
      ).then((answer) => ({ answer }));
      const cancelled = new Promise<never>((_, reject) => {
        question.signal.addEventListener("abort", () => reject(question.signal.reason), { once: true });
      });
      const first = await Promise.race([expectation.params.then((params) => ({ params })), answered, cancelled]);
      let params: URLSearchParams;
      if ("params" in first) {
        params = first.params;
      } else {
        if (!first.answer.ok) {
          throw new SignInDeclined(first.answer.reason === "declined" ? "the person declined to sign in" : `the sign-in question ended (${first.answer.reason ?? "cancelled"})`);
        }
        const waitMs = this.options.waitMs ?? SIGN_IN_WAIT_MS;
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the browser did not come back within ${Math.round(waitMs / 1000)} s`)), waitMs);
        });
        params = await Promise.race([expectation.params, late, cancelled]);
      }
      // The person's question, if still shown, has its answer now.
      question.abort(new Error("signed in"));
      if (params.get("error")) {
        const message = `the authorization server refused the sign-in (${errorCode(params.get("error"))})`;
        expectation.settle({ ok: false, message: `Sign-in failed: ${message}.` });
        throw new Error(message);
      }
      try {
        await this.provider.asOwnAuth(async () => {
          await (finish ? finish(params) : this.authorize(params));
        });
      } catch (error) {
        expectation.settle({ ok: false, message: "Sign-in failed: the companion could not redeem the authorization code. Check the companion for details." });
        throw error;
      }
      expectation.settle({ ok: true });
    } finally {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      question.abort(new Error("the sign-in ended"));
      expectation.cancel();
    }
  }

  /** The SDK's auth() on this server: without params it refreshes or starts over; with them it redeems the code. */
  private async authorize(params?: URLSearchParams): Promise<"AUTHORIZED" | "REDIRECT"> {
    const result = await this.provider.asOwnAuth(() =>
      auth(this.provider, {
        serverUrl: this.target.url,
        fetchFn: this.options.fetch,
        ...(params ? { authorizationCode: params.get("code") ?? "", iss: params.get("iss") ?? undefined } : {}),
      }),
    );
    if (params && result !== "AUTHORIZED") throw new Error("the authorization server did not issue a token");
    return result;
  }

  async signedIn(): Promise<boolean> {
    try {
      return (await this.provider.tokens()) !== undefined;
    } catch {
      return false;
    }
  }

  async signOut(): Promise<void> {
    this.pending = undefined;
    await this.provider.forget();
    await this.hooks?.signedOut();
  }
}

/**
 * Sign-ins one connect (or one tool call) may ask for before it gives up: a 401, then a step-up
 * to more scopes, then one more; a server that still refuses would ask forever (the conformance
 * suite's scope-retry-limit allows three authorization requests).
 */
export const MAX_SIGN_INS_PER_CONNECT = 3;
