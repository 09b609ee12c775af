// The callback hub: `state` is the callback's credential (the SDK does not check it).
import { describe, expect, it } from "vitest";
import { CallbackHub, startCallbackListener } from "../../../../src/main/auth/callback";

describe("CallbackHub", () => {
  it("refuses a missing or unknown state without echoing the query", async () => {
    const hub = new CallbackHub();
    hub.expect("right-state", "srv");
    for (const query of ["code=abc123secret", "code=abc123secret&state=wrong"]) {
      const page = await hub.handle(new URLSearchParams(query));
      expect(page.status).toBe(400);
      expect(JSON.stringify(page)).not.toContain("abc123secret");
    }
    expect(hub.pending).toBe(1);
  });

  it("hands the query to the waiting sign-in once, and the page says how it ended", async () => {
    const hub = new CallbackHub();
    const expectation = hub.expect("s1", "srv");
    const page = hub.handle(new URLSearchParams("code=c&state=s1&iss=https%3A%2F%2Fas.example"));
    const params = await expectation.params;
    expect(params.get("iss")).toBe("https://as.example");
    expectation.settle({ ok: true });
    expect(await page).toMatchObject({ status: 200, title: "Signed in" });
    // Used once: the same callback again is unknown.
    expect((await hub.handle(new URLSearchParams("code=c&state=s1"))).status).toBe(400);
  });

  it("a cancelled sign-in stops waiting for its callback", async () => {
    const hub = new CallbackHub();
    const expectation = hub.expect("s2", "srv");
    expectation.cancel();
    expect(hub.pending).toBe(0);
    expect((await hub.handle(new URLSearchParams("code=c&state=s2"))).status).toBe(400);
  });

  it("the loopback listener serves only the callback path, GET only, with no-store and no referrer", async () => {
    const hub = new CallbackHub();
    const listener = await startCallbackListener(hub);
    try {
      expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/);
      expect((await fetch(new URL("/other", listener.url))).status).toBe(404);
      expect((await fetch(listener.url, { method: "POST" })).status).toBe(405);
      const expectation = hub.expect("s3", "srv");
      const pending = fetch(`${listener.url}?code=c&state=s3`);
      await expectation.params;
      expectation.settle({ ok: false, message: "Sign-in failed: <script>x</script>" });
      const res = await pending;
      expect(res.status).toBe(400);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(await res.text()).toContain("&#60;script&#62;");
    } finally {
      await listener.close();
    }
  });
});
