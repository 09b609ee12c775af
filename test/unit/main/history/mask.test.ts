import { describe, expect, it } from "vitest";
import { MASK, maskAnswer, reduceUrl, reduceUrlsIn } from "../../../../src/main/history/mask";
import { fieldsAsked } from "../../../../src/forms/fields-asked";
import { isCredentialProperty as isCredentialField, namesCredential as isCredentialName } from "../../../../src/forms/credential";

describe("history masking", () => {
  it("treats credential-looking names as credentials, by whole word", () => {
    for (const name of ["password", "userPassword", "api_key", "apiKey", "API-Key", "api key", "Access Token", "client_secret", "credentials", "PIN", "pinCode", "otp", "passphrase", "refresh-token"]) {
      expect(isCredentialName(name), name).toBe(true);
    }
    for (const name of ["spinner", "shipping", "name", "topic", "keyboard", "description", "tokenize", "pinnacle"]) {
      expect(isCredentialName(name), name).toBe(false);
    }
  });

  it("uses the schema: title, format password and writeOnly mark a field", () => {
    expect(isCredentialField("code", { type: "string", title: "One-time PIN" })).toBe(true);
    expect(isCredentialField("value", { type: "string", format: "password" })).toBe(true);
    expect(isCredentialField("value", { type: "string", writeOnly: true })).toBe(true);
    expect(isCredentialField("value", { type: "string", title: "Your name" })).toBe(false);
  });

  it("masks credential fields and keeps the others", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", title: "Name" },
        pw: { type: "string", format: "password" },
        apiKey: { type: "string" },
        code: { type: "string", title: "OTP" },
        count: { type: "integer" },
        tags: { type: "array", items: { type: "string" } },
      },
    };
    expect(maskAnswer({ name: "Ada", pw: "hunter2", apiKey: "sk-1", code: "123456", count: 3, tags: ["a"] }, schema)).toEqual({
      name: "Ada",
      pw: MASK,
      apiKey: MASK,
      code: MASK,
      count: 3,
      tags: ["a"],
    });
  });

  it("masks credential keys at any depth of an agent's free-form answer", () => {
    expect(maskAnswer({ config: { auth: { token: "t0k", user: "me" } }, list: [{ secret: "s" }] })).toEqual({
      config: { auth: { token: MASK, user: "me" } },
      list: [{ secret: MASK }],
    });
  });

  it("reduces URLs to origin and path: no query, fragment or userinfo", () => {
    expect(reduceUrl("https://user:pw@auth.example.com/cb/done?code=abc&state=xyz#frag")).toBe("https://auth.example.com/cb/done");
    expect(reduceUrl("javascript:alert(1)")).toBeUndefined();
    expect(reduceUrl("not a url")).toBeUndefined();
    expect(reduceUrlsIn("open https://x.test/a?token=SECRET then http://y.test/?k=v.")).toBe("open https://x.test/a then http://y.test/");
    expect(maskAnswer({ link: "https://x.test/p?access_token=SECRET" })).toEqual({ link: "https://x.test/p" });
  });

  it("lists the fields asked: keys and titles, never defaults", () => {
    expect(fieldsAsked({ type: "object", properties: { a: { type: "string", title: "A", default: "secret default" }, b: { type: "number" } } })).toEqual([
      { key: "a", title: "A" },
      { key: "b" },
    ]);
    expect(fieldsAsked(undefined)).toEqual([]);
  });

  it("bounds what it keeps of a hostile free-form answer (wide and deep)", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 50; i++) deep = { next: deep };
    const wide = Array.from({ length: 200 }, () => Array.from({ length: 200 }, () => Array.from({ length: 200 }, () => 1)));
    const started = performance.now();
    const kept = maskAnswer({ deep, wide, long: "x".repeat(100_000) });
    expect(performance.now() - started).toBeLessThan(500);
    const text = JSON.stringify(kept);
    expect(text.length).toBeLessThan(50_000);
    expect(text).toContain("[…]");
    expect((kept.long as string).length).toBeLessThanOrEqual(2001);
  });
});
