// The gateway's own refusals speak the standard: a 401 from /mcp carries a Bearer challenge with
// error="invalid_token" naming where the token is, and the OAuth discovery paths answer a clear
// JSON error without a token, so an OAuth-capable client stops before it registers itself.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { companionPolicy } from "../../src/main/app/companion-server";
import { CallbackHub, startCallbackListener } from "../../src/main/auth";
import { agentOutbound, rawRequest } from "./gateway-harness";
import { createGatewayRoute } from "../../src/main/gateway";
import { startListener, type Listener } from "../../src/main/http/listener";
import { loadMcp } from "../../src/main/mcp/source";

let listener: Listener | undefined;
const closers: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function gateway(): Promise<Listener> {
  const source = await loadMcp({ mcpServers: {} });
  const route = createGatewayRoute({ source, outbound: agentOutbound() });
  listener = await startListener({ port: 0, token: () => "the-right-token", staticDir: mkdtempSync(join(tmpdir(), "tnc-static-")), ...companionPolicy(() => "the-right-token", [route]) });
  closers.push(() => source.close(), () => route.close(), () => listener?.close());
  return listener;
}

describe("the gateway's refusals", () => {
  it("a missing or wrong token gets 401 with error=invalid_token and where to find the token", async () => {
    const { url } = await gateway();
    for (const headers of [{}, { authorization: "Bearer rotated-long-ago" }] as Array<Record<string, string>>) {
      const res = await fetch(`${url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: "{}" });
      expect(res.status).toBe(401);
      const challenge = res.headers.get("www-authenticate") ?? "";
      expect(challenge).toMatch(/^Bearer /);
      expect(challenge).toContain('error="invalid_token"');
      expect(challenge).toContain("toolnexus-companion token");
    }
  });

  it("OAuth discovery paths answer a JSON error without a token", async () => {
    const { url } = await gateway();
    const prm = await fetch(`${url}/.well-known/oauth-protected-resource/mcp`);
    expect(prm.status).toBe(404);
    expect(((await prm.json()) as { error_description: string }).error_description).toContain("toolnexus-companion token");
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const res = await fetch(`${url}${path}`);
      expect(res.status).toBe(501);
      expect(res.headers.get("content-type")).toContain("application/json");
    }
  });

  it("an OAuth-capable SDK client with a wrong token stops at discovery: no registration, no authorization URL", async () => {
    const { url } = await gateway();
    const seen: string[] = [];
    const opened: URL[] = [];
    const provider: OAuthClientProvider = {
      redirectUrl: "http://127.0.0.1:1/callback",
      clientMetadata: { client_name: "agent", redirect_uris: ["http://127.0.0.1:1/callback"] },
      clientInformation: () => undefined,
      saveClientInformation: () => undefined,
      tokens: () => ({ access_token: "rotated-long-ago", token_type: "Bearer" }),
      saveTokens: () => undefined,
      redirectToAuthorization: (u) => void opened.push(u),
      saveCodeVerifier: () => undefined,
      codeVerifier: () => "v",
    };
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      authProvider: provider,
      fetch: (input, init) => {
        seen.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}`);
        return fetch(input, init);
      },
    });
    const client = new Client({ name: "agent", version: "1" });
    await expect(client.connect(transport)).rejects.toThrow(/501/);
    expect(seen.filter((s) => s.endsWith("/register"))).toEqual([]);
    expect(opened).toEqual([]);
  });
});

describe("what is served without the token", () => {
  it("the OAuth callback (the hub's own loopback listener, as the app runs it) answers by state alone; the app listener's public routes still only loopback Hosts", async () => {
    const hub = new CallbackHub();
    const callback = await startCallbackListener(hub);
    closers.push(() => callback.close());
    const expectation = hub.expect("browser-state", "srv");
    const landing = fetch(`${callback.url}?code=c&state=browser-state`);
    expect((await expectation.params).get("code")).toBe("c");
    expectation.settle({ ok: true });
    expect((await landing).status).toBe(200);
    expect((await fetch(`${callback.url}?code=c&state=unknown`)).status).toBe(400);
    const { url } = await gateway();
    const rebound = await rawRequest(`${url}/.well-known/oauth-authorization-server`, { method: "GET", headers: { host: "evil.example" } });
    expect(rebound.status).toBe(403);
  });
});
