// Sign-in to an OAuth-protected remote MCP server, end to end on loopback: the fixture
// oauth-server.mjs is the server and its authorization server; createAuth + loadMcp + the Inbox
// are the companion; a scripted person answers the sign-in question and, as their browser would,
// follows the authorization URL to the callback listener.
import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../../src/main/secrets";
import { companion, signingPerson, startOAuthServer, statusOf, until } from "./oauth-harness";
import { outputOf } from "../helpers/tool-output";

describe("OAuth sign-in to a remote server", () => {
  it("asks once, connects, runs a tool with an elicitation, reconnects after a restart with the refresh token, and sign-out removes every stored item", async () => {
    // Access tokens live 3 s, so the restart below finds an expired one and must refresh.
    const server = await startOAuthServer(["--expires-in", "3"]);
    const store = createMemoryStore("test");
    const pages: Array<{ status: number; body: string }> = [];

    const first = await companion(store, server.url, signingPerson(pages));
    const connected = await until(first.source, (s) => s.state === "connected");
    expect(connected.protocol).toBe("2026-07-28");
    // Tokens are stored now: the Servers view may offer Sign out.
    expect(connected.signedIn).toBe(true);

    const signIn = first.questions.filter((q) => q.request.kind === "authorization");
    expect(signIn).toHaveLength(1);
    expect(signIn[0].source.server).toBe("secure");
    expect(signIn[0].request.prompt).toContain('"secure"');
    expect(signIn[0].request.prompt).toContain(new URL(server.origin).host);
    const authorizationUrl = new URL(signIn[0].request.url!);
    expect(authorizationUrl.origin).toBe(server.origin);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(server.url);
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(first.callback.url);
    expect(pages).toEqual([{ status: 200, body: expect.stringContaining("Signed in to &#34;secure&#34;") }]);

    const tool = first.source.tools.find((t) => t.name === "secure_ask_region")!;
    expect((await outputOf(tool.execute({}))).output).toBe("region: emea");
    expect(first.questions.map((q) => q.request.kind)).toEqual(["authorization", "input"]);

    // Nothing the server issued reaches a log line or a page.
    const stored = await Promise.all((await store.list()).map((name) => store.get(name)));
    const tokens = stored.flatMap((v) => [...(v ?? "").matchAll(/"(?:access_token|refresh_token)":"([^"]+)"/g)].map((m) => m[1]));
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    for (const t of tokens) {
      expect(first.logs.join("\n")).not.toContain(t);
      expect(pages.map((p) => p.body).join("\n")).not.toContain(t);
    }
    expect(await store.list()).toEqual(expect.arrayContaining([expect.stringMatching(/^oauth\.[0-9a-f]{24}\.tokens\./), expect.stringMatching(/^oauth\.[0-9a-f]{24}\.client\./)]));

    await first.source.close();
    const before = await server.stats();
    // The token is short-lived (it refreshes at a tenth of its life), so a slow machine may already
    // have refreshed once here; what matters is that the restart refreshes again and asks nothing.
    expect(before).toMatchObject({ authorize: 1, codeGrants: 1, registrations: 1 });
    await new Promise((r) => setTimeout(r, 3_100));

    // Restart: a new companion (new callback listener, new port) with the same keychain.
    const second = await companion(store, server.url, signingPerson(pages));
    expect(statusOf(second.source)?.state).toBe("connected");
    expect(second.questions).toEqual([]);
    const after = await server.stats();
    expect(after).toMatchObject({ authorize: 1, codeGrants: 1, registrations: 1 });
    expect(after.refreshGrants).toBeGreaterThan(before.refreshGrants);
    // Refreshed before the expired token was sent: the server refused nothing more.
    expect(after.refused).toBe(before.refused);
    expect((await outputOf(second.source.tools.find((t) => t.name === "secure_ask_region")!.execute({}))).output).toBe("region: emea");

    await second.auth.signOut("secure");
    expect((await store.list()).filter((n) => n.startsWith("oauth."))).toEqual([]);
    expect(statusOf(second.source)).toMatchObject({ state: "needs-sign-in", toolCount: 0, signedIn: false });
  }, 40_000);

  it("a declined sign-in leaves the server needs-sign-in, with no token stored; Sign in asks again and connects", async () => {
    const server = await startOAuthServer();
    const store = createMemoryStore("test");
    const pages: Array<{ status: number; body: string }> = [];
    let decline = true;
    const sign = signingPerson(pages);
    const run = await companion(store, server.url, (entry, inbox) => {
      if (decline) inbox.answer(entry.request.id, { ok: false, reason: "declined" });
      else sign(entry, inbox);
    });
    const refused = await until(run.source, (s) => s.state === "needs-sign-in" && /did not complete/.test(s.error ?? ""));
    expect(refused.error).toContain("declined");
    expect((await store.list()).filter((n) => /\.tokens\./.test(n))).toEqual([]);
    expect((await server.stats()).authorize).toBe(0);
    await expect(run.source.tools.length).toBe(0);

    decline = false;
    expect(await run.auth.signIn("secure")).toBe(true);
    expect(statusOf(run.source)?.state).toBe("connected");
    expect(run.questions.filter((q) => q.request.kind === "authorization")).toHaveLength(2);
  }, 30_000);

  it("a configured Authorization header is the person's credential: its 401 fails the server without starting OAuth", async () => {
    const server = await startOAuthServer();
    const run = await companion(createMemoryStore("test"), server.url, () => undefined, { headers: { Authorization: "Bearer a-static-key-that-is-wrong" } });
    const failed = await until(run.source, (s) => s.state === "failed" || s.state === "needs-sign-in");
    expect(failed.state).toBe("failed");
    expect(failed.error).toContain("401");
    expect(run.questions).toEqual([]);
    expect(await server.stats()).toMatchObject({ registrations: 0, authorize: 0 });
  }, 30_000);

  it("quitting while a sign-in waits on the browser ends the wait", async () => {
    const server = await startOAuthServer();
    let answered = false;
    const run = await companion(createMemoryStore("test"), server.url, (entry, inbox) => {
      // The person clicked "Open in browser" and never came back.
      inbox.answer(entry.request.id, { ok: true });
      answered = true;
    });
    await expect.poll(() => answered).toBe(true);
    expect(run.auth.hub.pending).toBe(1);
    const started = Date.now();
    await run.source.close();
    await expect.poll(() => run.auth.hub.pending).toBe(0);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(run.logs.join("\n")).toContain("sign-in did not complete: the companion is shutting down");
  }, 30_000);

  it("a callback with a forged state is refused and never redeems a code", async () => {
    const server = await startOAuthServer();
    const store = createMemoryStore("test");
    const pages: Array<{ status: number; body: string }> = [];
    let forged: { status: number; body: string } | undefined;
    const run = await companion(store, server.url, (entry, inbox) => {
      if (entry.request.kind !== "authorization") return;
      void (async () => {
        const authorize = await fetch(entry.request.url!, { redirect: "manual" });
        const back = new URL(authorize.headers.get("location")!);
        back.searchParams.set("state", "forged-state");
        const landed = await fetch(back);
        forged = { status: landed.status, body: await landed.text() };
        inbox.answer(entry.request.id, { ok: false, reason: "cancelled" });
      })();
    });
    await until(run.source, (s) => s.state === "needs-sign-in" && /did not complete/.test(s.error ?? ""));
    expect(forged?.status).toBe(400);
    expect(forged?.body).toContain("does not match a sign-in the companion started");
    expect(forged?.body).not.toContain("code=");
    expect((await server.stats()).codeGrants).toBe(0);
    expect(pages).toEqual([]);
  }, 30_000);
});
