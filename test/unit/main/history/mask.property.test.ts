// Property tests (fast-check, bounded): whatever an answer holds, history keeps no credential
// value and no URL query or fragment.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MASK, maskAnswer, reduceUrl, reduceUrlsIn } from "../../../../src/main/history/mask";
import { namesCredential as isCredentialName } from "../../../../src/forms/credential";

const credentialKey = fc.constantFrom("password", "apiKey", "api_key", "clientSecret", "accessToken", "pin", "otp", "passphrase", "Credentials");
const secretValue = fc.string({ minLength: 8, maxLength: 24 }).map((s) => `S3CR3T-${s}`);

describe("history masking properties", () => {
  it("a credential-named key's value never survives, at any depth", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 10 }), { maxLength: 6 }), credentialKey, secretValue, (path, key, secret) => {
        let value: Record<string, unknown> = { [key]: secret };
        for (const step of path) value = { [`k${step}`]: value };
        const kept = JSON.stringify(maskAnswer({ root: value }));
        expect(kept).not.toContain("S3CR3T-");
        expect(kept).toContain(JSON.stringify(MASK));
      }),
      { numRuns: 200 },
    );
  });

  it("a reduced URL has no query, fragment or userinfo", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        const reduced = reduceUrl(url);
        if (reduced === undefined) return;
        expect(reduced).not.toMatch(/[?#]/);
        const parsed = new URL(reduced);
        expect([parsed.username, parsed.password, parsed.search, parsed.hash]).toEqual(["", "", "", ""]);
        expect(parsed.origin).toBe(new URL(url).origin);
      }),
      { numRuns: 300 },
    );
  });

  it("URLs in text lose their query strings", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.webUrl(), secretValue, (before, url, token) => {
        const text = `${before} ${url}?token=${encodeURIComponent(token)} tail`;
        expect(reduceUrlsIn(text)).not.toContain("S3CR3T-");
      }),
      { numRuns: 200 },
    );
  });

  it("names are judged without throwing, whatever they hold", () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (name) => typeof isCredentialName(name) === "boolean"), { numRuns: 300 });
  });
});
