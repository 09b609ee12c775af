// Property: the guard and the target parser are total. Whatever Host, Origin, Cookie and
// Authorization a client sends, checkRequest returns a verdict (never a throw) with a status a
// client can act on, and only the right secret gets through.
import type { IncomingMessage } from "node:http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkRequest, readCookie } from "../../src/main/http/guard";
import { parseTarget } from "../../src/main/http/request-target";

const TOKEN = "fuzz-token-0123456789";
const SESSION = "fuzz-session";
const page = { token: () => TOKEN, allowCookie: true, cookie: { name: "tnc_session_7315", value: () => SESSION } };
const bearer = { token: () => TOKEN, allowCookie: false };

// Strings as clients send them, plus the shapes that once threw (bad escapes, bracketed hosts).
const piece = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom("%E0%A4%A", "%", "%zz", "http://[", "//", "http://localhost:3999", "http://127.0.0.1:7315", "[::1]", "null", "Bearer ", "tnc_session_7315="),
);
const headerValue = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join(""));

const headers = fc.record(
  { host: headerValue, origin: headerValue, cookie: headerValue, authorization: headerValue },
  { requiredKeys: [] },
);

function req(h: Record<string, string>): IncomingMessage {
  return { headers: h } as unknown as IncomingMessage;
}

describe("guard properties", () => {
  it("never throws and answers 400, 401 or 403 unless the secret is right", () => {
    fc.assert(
      fc.property(headers, fc.boolean(), (h, allowCookie) => {
        const verdict = checkRequest(req(h), allowCookie ? page : bearer);
        if (verdict.ok) {
          // Only the real secret gets through, by the route it is allowed on.
          if (verdict.via === "bearer") expect(h.authorization).toContain(TOKEN);
          else expect(allowCookie && h.cookie?.includes(SESSION)).toBe(true);
        } else {
          expect([400, 401, 403]).toContain(verdict.status);
          expect(typeof verdict.message).toBe("string");
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a page on another localhost port never passes with the cookie, whatever else it sends", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65535 }).filter((p) => p !== 7315), headerValue, (port, value) => {
        const h = { host: "127.0.0.1:7315", origin: `http://localhost:${port}`, cookie: `tnc_session_7315=${value}` };
        expect(checkRequest(req(h), page).ok).toBe(false);
        expect(checkRequest(req({ ...h, cookie: `tnc_session_7315=${SESSION}` }), page).ok).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it("readCookie and parseTarget are total", () => {
    fc.assert(
      fc.property(headerValue, headerValue, (cookie, target) => {
        const value = readCookie(req({ cookie }), "tnc_session_7315");
        expect(value === undefined || value === null || typeof value === "string").toBe(true);
        const url = parseTarget(target);
        if (url) expect(url.host).toBe("127.0.0.1");
      }),
      { numRuns: 300 },
    );
  });
});
