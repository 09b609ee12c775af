// The OAuth provider's storage: what goes into the SecretStore under which name, and what comes back.
import { describe, expect, it } from "vitest";
import { keysFor } from "../../../../src/main/auth/keys";
import { sameCallback, StoredOAuthProvider, type ProviderOptions } from "../../../../src/main/auth/provider";
import { createMemoryStore } from "../../../../src/main/secrets";
import { SECRET_NAME } from "../../../../src/main/secrets/types";

const SERVER = "https://mcp.example.com/mcp";
const CALLBACK = "http://127.0.0.1:41000/oauth/callback";

function provider(overrides: Partial<ProviderOptions> = {}) {
  const store = overrides.store ?? createMemoryStore("test");
  const redacted: string[] = [];
  const urls: URL[] = [];
  const p = new StoredOAuthProvider({
    store,
    serverUrl: SERVER,
    redirectUrl: CALLBACK,
    clientName: "Toolnexus Companion",
    redact: (v) => redacted.push(v),
    onAuthorizationUrl: (u) => urls.push(u),
    ...overrides,
  });
  return { p, store, redacted, urls };
}

describe("OAuth secret names", () => {
  it("are valid keychain names, one prefix per server, the fragment ignored", () => {
    const keys = keysFor(SERVER);
    for (const name of [keys.tokens("https://issuer.example"), keys.client("https://a.example/tenant?x=1"), keys.current, keys.verifier, keys.discovery]) {
      expect(name).toMatch(SECRET_NAME);
      expect(name.startsWith(keys.prefix)).toBe(true);
    }
    expect(keysFor(`${SERVER}#frag`).prefix).toBe(keys.prefix);
    expect(keysFor("https://mcp.example.com/other").prefix).not.toBe(keys.prefix);
    expect(keys.tokens("https://issuer-a.example")).not.toBe(keys.tokens("https://issuer-b.example"));
  });
});

describe("StoredOAuthProvider", () => {
  it("keeps tokens per issuer, reads the last saved without an issuer, and tells every token to the redaction registry", async () => {
    const { p, store, redacted } = provider();
    await p.saveTokens({ access_token: "access-aaaaaa", token_type: "Bearer", refresh_token: "refresh-aaaaaa" }, { issuer: "https://a.example" });
    await p.saveTokens({ access_token: "access-bbbbbb", token_type: "Bearer" }, { issuer: "https://b.example" });
    expect((await p.tokens({ issuer: "https://a.example" }))?.access_token).toBe("access-aaaaaa");
    expect((await p.tokens({ issuer: "https://c.example" }))?.access_token).toBeUndefined();
    expect((await p.tokens())?.access_token).toBe("access-bbbbbb");
    expect(redacted).toEqual(expect.arrayContaining(["access-aaaaaa", "refresh-aaaaaa", "access-bbbbbb"]));
    // A fresh provider over the same store (a restart) reads them back.
    const again = provider({ store }).p;
    expect((await again.tokens())?.access_token).toBe("access-bbbbbb");
  });

  it("keeps the refresh token when a refresh response leaves it out", async () => {
    const { p } = provider();
    const ctx = { issuer: "https://a.example" };
    await p.saveTokens({ access_token: "access-one111", token_type: "Bearer", refresh_token: "refresh-one111" }, ctx);
    await p.saveTokens({ access_token: "access-two222", token_type: "Bearer" }, ctx);
    expect(await p.tokens(ctx)).toMatchObject({ access_token: "access-two222", refresh_token: "refresh-one111" });
  });

  it("hands out a pre-registered client with its secret, and never stores it", async () => {
    const { p, store, redacted } = provider({ preRegistered: { clientId: "cid", clientSecret: "s3cret-value", scopes: ["read", "write"] } });
    expect(await p.clientInformation({ issuer: "https://a.example" })).toEqual({ client_id: "cid", client_secret: "s3cret-value", issuer: "https://a.example" });
    await p.saveClientInformation({ client_id: "other" }, { issuer: "https://a.example" });
    expect(await store.list()).toEqual([]);
    expect(p.clientMetadata.scope).toBe("read write");
    expect(redacted).toContain("s3cret-value");
  });

  it("keeps a registration for a loopback callback on another port, not for another callback", async () => {
    const { p, store } = provider();
    await p.saveClientInformation({ client_id: "dcr-1", redirect_uris: ["http://127.0.0.1:39999/oauth/callback"] } as never, { issuer: "https://a.example" });
    expect((await p.clientInformation({ issuer: "https://a.example" }))?.client_id).toBe("dcr-1");
    const other = provider({ store, redirectUrl: "http://127.0.0.1:41000/elsewhere" }).p;
    expect(await other.clientInformation({ issuer: "https://a.example" })).toBeUndefined();
    expect(sameCallback("https://app.example/cb", "https://app.example:8443/cb")).toBe(false);
    expect(sameCallback("http://127.0.0.1:1/oauth/callback", "http://127.0.0.1:2/oauth/callback")).toBe(true);
  });

  it("never opens the authorization URL itself: it is handed to the sign-in", async () => {
    const { p, urls } = provider();
    await p.redirectToAuthorization(new URL("https://as.example/authorize?state=x"));
    expect(urls.map(String)).toEqual(["https://as.example/authorize?state=x"]);
  });

  it("keeps the PKCE verifier in the store and says when there is none", async () => {
    const { p, store } = provider();
    await expect(p.codeVerifier()).rejects.toThrow(/no sign-in is in progress/);
    await p.saveCodeVerifier("verifier-123456");
    expect(await store.get(p.keys.verifier)).toBe("verifier-123456");
    expect(await p.codeVerifier()).toBe("verifier-123456");
  });

  it("forget removes every item of this server and nothing of another", async () => {
    const store = createMemoryStore("test");
    await store.set("gateway-token", "keep-me-please");
    const mine = provider({ store }).p;
    const theirs = provider({ store, serverUrl: "https://other.example/mcp" }).p;
    for (const p of [mine, theirs]) {
      await p.saveTokens({ access_token: "access-xxxxxx", token_type: "Bearer" }, { issuer: "https://a.example" });
      await p.saveClientInformation({ client_id: "c" }, { issuer: "https://a.example" });
      await p.saveCodeVerifier("verifier-xxxxxx");
      await p.saveDiscoveryState({ authorizationServerUrl: "https://a.example" });
    }
    await mine.forget();
    const left = await store.list();
    expect(left.filter((n) => n.startsWith(mine.keys.prefix))).toEqual([]);
    expect(left.filter((n) => n.startsWith(theirs.keys.prefix))).toHaveLength(5);
    expect(left).toContain("gateway-token");
    expect(await mine.tokens()).toBeUndefined();
  });

  it("refreshes a token close to expiry before handing it to a request, once for concurrent reads", async () => {
    let now = 1_000_000;
    const calls: string[] = [];
    const fakeFetch = (async (input: string | URL) => {
      calls.push(String(input));
      throw new TypeError("offline");
    }) as typeof fetch;
    const { p } = provider({ now: () => now, fetch: fakeFetch });
    await p.saveTokens({ access_token: "access-old000", token_type: "Bearer", refresh_token: "refresh-old000", expires_in: 3600 }, { issuer: "https://a.example" });
    expect((await p.tokens())?.access_token).toBe("access-old000");
    expect(calls).toEqual([]);
    now += 3600_000 - 30_000;
    // The refresh fails here (no network): the old token goes out, the server's 401 decides.
    const reads = await Promise.all([p.tokens(), p.tokens()]);
    expect(reads.map((t) => t?.access_token)).toEqual(["access-old000", "access-old000"]);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.startsWith("https://mcp.example.com/.well-known/"))).toBe(true);
  });
});
