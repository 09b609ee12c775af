// The SDK's OAuthClientProvider over the SecretStore: tokens, refresh tokens, client
// registrations, the PKCE verifier and discovery state of one server, keyed by server URL and
// authorization-server issuer (keys.ts). The SDK does the protocol (discovery, registration,
// PKCE, resource, scopes, iss); this class only keeps what it produces and hands out the URL.
import { randomBytes } from "node:crypto";
import {
  auth,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { SecretStore } from "../secrets/types";
import { keysFor, type ServerKeys } from "./keys";
import type { PreRegisteredClient } from "./types";

/** Tokens this close to expiry are refreshed before the next request rather than after a 401. */
const REFRESH_MARGIN_MS = 60_000;

interface SavedTokens {
  tokens: StoredOAuthTokens;
  /** Epoch ms; absent when the server gave no `expires_in`. */
  expiresAt?: number;
  /** The token's whole life in ms: a short-lived token is refreshed closer to its end. */
  lifetimeMs?: number;
}

export interface ProviderOptions {
  store: SecretStore;
  serverUrl: string;
  /** The loopback callback (listener route or per-flow listener); fixed for the provider's life. */
  redirectUrl: string;
  clientName: string;
  preRegistered?: PreRegisteredClient;
  /** An https client ID metadata document, used where the authorization server supports them. */
  clientMetadataUrl?: string;
  /** Told every token value so no log line or page can carry one. */
  redact?: (value: string) => void;
  /** The SDK produced an authorization URL: the person must open it (never opened here). */
  onAuthorizationUrl(url: URL): void;
  fetch?: typeof fetch;
  now?: () => number;
}

function parse<T>(text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    // A corrupt entry is as good as none: the flow asks again.
    return undefined;
  }
}

/** Equal callbacks, where loopback IP ones may differ in port (RFC 8252, section 7.3). */
export function sameCallback(registered: string, current: string): boolean {
  if (registered === current) return true;
  try {
    const a = new URL(registered);
    const b = new URL(current);
    const loopback = (u: URL) => u.hostname === "127.0.0.1" || u.hostname === "[::1]";
    return loopback(a) && loopback(b) && a.protocol === b.protocol && a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search;
  } catch {
    return false;
  }
}

export class StoredOAuthProvider implements OAuthClientProvider {
  readonly keys: ServerKeys;
  /** Reads are cached: the transport asks for the token before every request, keytar is D-Bus. */
  private readonly cache = new Map<string, string | undefined>();
  private lastState?: string;
  private refreshing?: Promise<void>;
  /** >0 while the companion itself runs auth(): a refresh, a sign-in, redeeming a code. */
  private ownAuth = 0;

  constructor(private readonly options: ProviderOptions) {
    this.keys = keysFor(options.serverUrl);
    if (options.preRegistered?.clientSecret) options.redact?.(options.preRegistered.clientSecret);
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.options.preRegistered?.scopes;
    return {
      client_name: this.options.clientName,
      redirect_uris: [this.options.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(" ") } : {}),
    };
  }

  /** The state of the authorization URL handed out last; the callback must carry it back. */
  get expectedState(): string | undefined {
    return this.lastState;
  }

  state(): string {
    this.lastState = randomBytes(32).toString("base64url");
    return this.lastState;
  }

  private async read(name: string): Promise<string | undefined> {
    if (this.cache.has(name)) return this.cache.get(name);
    const value = await this.options.store.get(name);
    this.cache.set(name, value);
    return value;
  }

  private async write(name: string, value: string): Promise<void> {
    this.cache.set(name, value);
    await this.options.store.set(name, value);
  }

  private async remove(name: string): Promise<void> {
    this.cache.set(name, undefined);
    await this.options.store.delete(name);
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const pre = this.options.preRegistered;
    if (pre) return { client_id: pre.clientId, ...(pre.clientSecret ? { client_secret: pre.clientSecret } : {}), ...(ctx ? { issuer: ctx.issuer } : {}) };
    if (!ctx) return undefined;
    const saved = parse<StoredOAuthClientInformation & { redirect_uris?: string[] }>(await this.read(this.keys.client(ctx.issuer)));
    // A registration made for another callback would be refused at the authorization endpoint:
    // register again. A loopback callback on another port is the same one (RFC 8252, section 7.3), so
    // the Electron listener's per-run port keeps its registration and its refresh token.
    if (saved?.redirect_uris && !saved.redirect_uris.some((uri) => sameCallback(uri, this.options.redirectUrl))) return undefined;
    return saved;
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    if (this.options.preRegistered) return;
    const issuer = ctx?.issuer ?? info.issuer;
    if (!issuer) return;
    if ("client_secret" in info && typeof info.client_secret === "string") this.options.redact?.(info.client_secret);
    await this.write(this.keys.client(issuer), JSON.stringify(info));
  }

  private async saved(ctx?: OAuthClientInformationContext): Promise<SavedTokens | undefined> {
    const issuer = ctx?.issuer ?? (await this.read(this.keys.current));
    if (!issuer) return undefined;
    const saved = parse<SavedTokens>(await this.read(this.keys.tokens(issuer)));
    if (saved?.tokens) {
      this.options.redact?.(saved.tokens.access_token);
      if (saved.tokens.refresh_token) this.options.redact?.(saved.tokens.refresh_token);
    }
    return saved?.tokens ? saved : undefined;
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const saved = await this.saved(ctx);
    // Without ctx this is the transport's read before a request: refresh first if the token is
    // about to expire, so a long-lived connection does not ride into a 401.
    if (!ctx && saved && this.expiresSoon(saved) && saved.tokens.refresh_token) {
      await this.refresh();
      return (await this.saved())?.tokens;
    }
    return saved?.tokens;
  }

  private expiresSoon(saved: SavedTokens): boolean {
    const now = (this.options.now ?? Date.now)();
    if (saved.expiresAt === undefined) return false;
    const margin = Math.min(REFRESH_MARGIN_MS, (saved.lifetimeMs ?? Infinity) / 10);
    return saved.expiresAt - now < margin;
  }

  /** One refresh at a time; a failed refresh leaves the old token, and the server's 401 decides. */
  private refresh(): Promise<void> {
    this.refreshing ??= this.asOwnAuth(() => auth(this, { serverUrl: this.options.serverUrl, fetchFn: this.options.fetch }))
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    this.options.redact?.(tokens.access_token);
    if (tokens.refresh_token) this.options.redact?.(tokens.refresh_token);
    const issuer = ctx?.issuer ?? tokens.issuer;
    if (!issuer) return;
    // A refresh response may omit the refresh token: keep the one we have (RFC 6749, section 6).
    const previous = (await this.saved({ issuer }))?.tokens;
    const kept = !tokens.refresh_token && previous?.refresh_token ? { ...tokens, refresh_token: previous.refresh_token } : tokens;
    const now = (this.options.now ?? Date.now)();
    const lifetimeMs = typeof tokens.expires_in === "number" && tokens.expires_in > 0 ? tokens.expires_in * 1000 : undefined;
    const saved: SavedTokens = { tokens: kept, ...(lifetimeMs ? { expiresAt: now + lifetimeMs, lifetimeMs } : {}) };
    await this.write(this.keys.tokens(issuer), JSON.stringify(saved));
    await this.write(this.keys.current, issuer);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    // Never opened here: the person is asked, and only their click opens it.
    this.options.onAuthorizationUrl(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.write(this.keys.verifier, codeVerifier);
  }

  async codeVerifier(): Promise<string> {
    const verifier = await this.read(this.keys.verifier);
    if (!verifier) throw new Error("no sign-in is in progress for this server (no PKCE verifier is stored)");
    return verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.write(this.keys.discovery, JSON.stringify(state));
  }

  /** Runs the companion's own auth() (or a transport's finishAuth): the saved discovery is used. */
  async asOwnAuth<T>(work: () => Promise<T>): Promise<T> {
    this.ownAuth++;
    try {
      return await work();
    } finally {
      this.ownAuth--;
    }
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    // Any other auth() is a transport answering a 401 or 403: the server refused what we sent,
    // and its protected-resource metadata may now name another authorization server (SEP-2352).
    // Discovering afresh then registers with and signs in to that one, not the old one again.
    if (this.ownAuth === 0) return undefined;
    return parse<OAuthDiscoveryState>(await this.read(this.keys.discovery));
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const names = await this.options.store.list();
    const ours = names.filter((n) => n.startsWith(this.keys.prefix));
    const drop = (n: string) =>
      scope === "all" ||
      (scope === "tokens" && (n.startsWith(`${this.keys.prefix}tokens.`) || n === this.keys.current)) ||
      (scope === "client" && n.startsWith(`${this.keys.prefix}client.`)) ||
      (scope === "verifier" && n === this.keys.verifier) ||
      (scope === "discovery" && n === this.keys.discovery);
    for (const name of ours.filter(drop)) await this.remove(name);
    // Cached misses for names never stored must go too, or a stale entry could linger.
    for (const name of [...this.cache.keys()]) if (drop(name)) this.cache.delete(name);
  }

  /** Sign-out: every item of this server, whatever its issuer. */
  async forget(): Promise<void> {
    await this.invalidateCredentials("all");
    this.cache.clear();
    this.lastState = undefined;
  }
}
