// The Request check for /v1/requests: days that do not exist, and bounds on what is kept.
import { describe, expect, it } from "vitest";
import { checkPostedRequest as checkRequest, isRfc3339 } from "../../../../src/main/gateway";
import { MAX_PROMPT_LENGTH, MAX_URL_LENGTH } from "../../../../src/shared/limits";

describe("isRfc3339", () => {
  it.each(["2030-02-30T00:00:00Z", "2026-04-31T12:00:00Z", "2025-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-06-31T00:00:00+02:00", "2026-11-31 00:00:00Z"])(
    "refuses the day that does not exist: %s",
    (value) => expect(isRfc3339(value)).toBe(false),
  );
  it.each(["2024-02-29T00:00:00Z", "2000-02-29T23:59:59Z", "2026-04-30T12:00:00Z", "2026-12-31T23:59:59.5-05:00", "2026-01-31 12:00:00Z"])(
    "accepts %s",
    (value) => expect(isRfc3339(value)).toBe(true),
  );
});

describe("checkRequest bounds", () => {
  it("refuses an impossible expiresAt with the rule", () => {
    const r = checkRequest({ id: "a", kind: "input", prompt: "?", expiresAt: "2030-02-30T00:00:00Z" });
    expect(r).toMatchObject({ ok: false });
    expect(!r.ok && r.reason).toMatch(/RFC 3339.*exists/);
  });
  it("refuses data nested 10k levels deep", () => {
    let data: unknown = {};
    for (let i = 0; i < 10_000; i++) data = { d: data };
    const r = checkRequest({ id: "a", kind: "input", prompt: "?", data });
    expect(!r.ok && r.reason).toMatch(/nested more than 64 levels/);
  });
  it("refuses a prompt or url past its limit", () => {
    expect(checkRequest({ id: "a", kind: "input", prompt: "x".repeat(MAX_PROMPT_LENGTH + 1) })).toMatchObject({ ok: false });
    const url = `https://e.example/${"a".repeat(MAX_URL_LENGTH)}`;
    expect(checkRequest({ id: "a", kind: "authorization", prompt: "Sign in", url })).toMatchObject({ ok: false });
  });
  it("never throws, even on getters that throw or proxies", () => {
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error("boom"); } });
    expect(checkRequest(hostile)).toMatchObject({ ok: false });
  });
});
