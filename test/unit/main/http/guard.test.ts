import { describe, it, expect } from "vitest";
import type { IncomingMessage } from "node:http";
import { checkRequest, isLoopbackHost, isLoopbackOrigin, readCookie, sameSecret } from "../../../../src/main/http/guard";

const TOKEN = "t0ken-abc";
function req(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}
const bearer = { token: () => TOKEN, allowCookie: false };
const page = { token: () => TOKEN, allowCookie: true, cookie: { name: "tnc_session_7315", value: () => "sess" } };

describe("isLoopbackHost", () => {
  it.each(["127.0.0.1", "127.0.0.1:7315", "localhost", "LOCALHOST:80", "[::1]", "[::1]:7315"])("accepts %s", (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(["attacker.example", "attacker.example:7315", "127.0.0.1.nip.io", "localhost.evil.com", "::1", "0.0.0.0", "", "127.0.0.2", "[::2]:1"])(
    "refuses %s",
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
  it("refuses a missing Host", () => expect(isLoopbackHost(undefined)).toBe(false));
});

describe("isLoopbackOrigin", () => {
  it.each(["http://127.0.0.1:7315", "http://localhost:3000", "http://[::1]:7315", "https://localhost"])("accepts %s", (o) =>
    expect(isLoopbackOrigin(o)).toBe(true),
  );
  it.each(["https://evil.example", "null", "file://", "http://localhost.evil.com", "chrome-extension://abc", "http://127.0.0.1:7315/path"])(
    "refuses %s",
    (o) => expect(isLoopbackOrigin(o)).toBe(false),
  );
});

describe("checkRequest", () => {
  it("accepts the right bearer token on a loopback Host without Origin", () => {
    expect(checkRequest(req({ host: "127.0.0.1:7315", authorization: `Bearer ${TOKEN}` }), bearer)).toEqual({ ok: true, via: "bearer", credential: "gateway-token" });
  });
  it("accepts a loopback Origin", () => {
    const r = checkRequest(req({ host: "localhost:7315", origin: "http://localhost:7315", authorization: `Bearer ${TOKEN}` }), bearer);
    expect(r.ok).toBe(true);
  });
  it("refuses no token with 401", () => {
    expect(checkRequest(req({ host: "127.0.0.1:7315" }), bearer)).toMatchObject({ ok: false, status: 401 });
  });
  it("refuses a wrong token with 401", () => {
    expect(checkRequest(req({ host: "127.0.0.1:7315", authorization: "Bearer nope" }), bearer)).toMatchObject({ ok: false, status: 401 });
    expect(checkRequest(req({ host: "127.0.0.1:7315", authorization: `Bearer ${TOKEN}x` }), bearer)).toMatchObject({ ok: false, status: 401 });
  });
  it("refuses a token in another scheme", () => {
    expect(checkRequest(req({ host: "127.0.0.1:7315", authorization: `Basic ${TOKEN}` }), bearer)).toMatchObject({ ok: false, status: 401 });
  });
  it("refuses a non-loopback Host with 403 even with the token", () => {
    const r = checkRequest(req({ host: "attacker.example", authorization: `Bearer ${TOKEN}` }), bearer);
    expect(r).toMatchObject({ ok: false, status: 403 });
    expect(r.ok || r.message).toContain("attacker.example");
  });
  it("refuses a missing Host with 403", () => {
    expect(checkRequest(req({ authorization: `Bearer ${TOKEN}` }), bearer)).toMatchObject({ ok: false, status: 403 });
  });
  it("refuses a foreign Origin with 403 even with the token", () => {
    const r = checkRequest(req({ host: "127.0.0.1:7315", origin: "https://evil.example", authorization: `Bearer ${TOKEN}` }), bearer);
    expect(r).toMatchObject({ ok: false, status: 403 });
  });
  it("refuses Origin: null", () => {
    expect(checkRequest(req({ host: "127.0.0.1:7315", origin: "null", authorization: `Bearer ${TOKEN}` }), bearer)).toMatchObject({ status: 403 });
  });
  it("ignores the cookie where cookies are not allowed", () => {
    expect(checkRequest(req({ host: "127.0.0.1:7315", cookie: "tnc_session_7315=sess" }), bearer)).toMatchObject({ ok: false, status: 401 });
  });
  it("accepts the page's session cookie where allowed", () => {
    expect(checkRequest(req({ host: "127.0.0.1:7315", cookie: "a=b; tnc_session_7315=sess" }), page)).toEqual({ ok: true, via: "cookie", credential: "page-session" });
    expect(
      checkRequest(req({ host: "127.0.0.1:7315", origin: "http://127.0.0.1:7315", cookie: "tnc_session_7315=sess" }), page),
    ).toMatchObject({ ok: true });
  });
  it("refuses a wrong cookie with 401", () => {
    expect(checkRequest(req({ host: "127.0.0.1:7315", cookie: "tnc_session_7315=other" }), page)).toMatchObject({ ok: false, status: 401 });
  });
  it("refuses a cookie request from another loopback origin (another local web app)", () => {
    const r = checkRequest(req({ host: "127.0.0.1:7315", origin: "http://127.0.0.1:3000", cookie: "tnc_session_7315=sess" }), page);
    expect(r).toMatchObject({ ok: false, status: 403 });
  });
  it("refuses a malformed session cookie with 400 instead of throwing", () => {
    for (const value of ["%E0%A4%A", "%", "%zz", "%C0"]) {
      const r = checkRequest(req({ host: "127.0.0.1:7315", origin: "http://127.0.0.1:7315", cookie: `tnc_session_7315=${value}` }), page);
      expect(r).toMatchObject({ ok: false, status: 400 });
    }
    // Another cookie's bad encoding is not ours to judge.
    expect(checkRequest(req({ host: "127.0.0.1:7315", cookie: "other=%E0%A4%A; tnc_session_7315=sess" }), page)).toEqual({ ok: true, via: "cookie", credential: "page-session" });
  });
  it("a foreign localhost page riding the cookie stays refused, well-formed or not", () => {
    for (const value of ["sess", "%E0%A4%A", "forged"]) {
      const r = checkRequest(req({ host: "127.0.0.1:7315", origin: "http://localhost:3999", cookie: `tnc_session_7315=${value}` }), page);
      expect(r.ok).toBe(false);
    }
  });
  it("never throws on headers of the wrong type (arrays, numbers)", () => {
    const odd = { host: ["127.0.0.1:7315"], origin: 7, cookie: ["a=b"], authorization: ["Bearer x"] } as unknown as Record<string, string>;
    expect(checkRequest(req(odd), page)).toMatchObject({ ok: false });
  });
  it("refuses a cookie request on a rebinding Host", () => {
    expect(checkRequest(req({ host: "evil.example:7315", cookie: "tnc_session_7315=sess" }), page)).toMatchObject({ ok: false, status: 403 });
  });
});

describe("helpers", () => {
  it("sameSecret compares exactly and never matches an empty expected value", () => {
    expect(sameSecret("abc", "abc")).toBe(true);
    expect(sameSecret("abc", "abd")).toBe(false);
    expect(sameSecret("ab", "abc")).toBe(false);
    expect(sameSecret("", "")).toBe(false);
  });
  it("readCookie finds one cookie among several", () => {
    expect(readCookie(req({ cookie: "x=1; tnc=abc%3D; y=2" }), "tnc")).toBe("abc=");
    expect(readCookie(req({}), "tnc")).toBeUndefined();
    expect(readCookie(req({ cookie: "tnc=%E0%A4%A" }), "tnc")).toBeNull();
  });
});
