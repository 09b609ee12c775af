// The bearer verdict a keep-alive connection remembers (sameSecretOn): it saves hashing the same
// header on every call, and never lets through what the hashed compare would refuse: another
// token on the same connection, the old token after a rotation, or any token on another one.
import type { IncomingMessage } from "node:http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkRequest, sameSecret, sameSecretOn } from "../../../../src/main/http/guard";

function req(socket: object, authorization: string): IncomingMessage {
  return { socket, headers: { host: "127.0.0.1:7315", authorization } } as unknown as IncomingMessage;
}

describe("sameSecretOn", () => {
  it("follows a rotation on a connection that was let in", () => {
    let token = "first-token-0123";
    const options = { token: () => token, allowCookie: false };
    const socket = {};
    expect(checkRequest(req(socket, `Bearer ${token}`), options).ok).toBe(true);
    expect(checkRequest(req(socket, "Bearer first-token-0123"), options).ok).toBe(true);
    token = "second-token-4567";
    expect(checkRequest(req(socket, "Bearer first-token-0123"), options)).toMatchObject({ ok: false, status: 401 });
    expect(checkRequest(req(socket, "Bearer second-token-4567"), options).ok).toBe(true);
    expect(checkRequest(req(socket, "Bearer second-token-456"), options)).toMatchObject({ ok: false, status: 401 });
    expect(checkRequest(req({}, "Bearer first-token-0123"), options).ok).toBe(false);
  });

  it("an empty expected token lets nobody in, remembered or not", () => {
    const socket = {};
    expect(sameSecretOn(socket, "x", "x")).toBe(true);
    expect(sameSecretOn(socket, "", "")).toBe(false);
    expect(sameSecretOn(socket, "x", "")).toBe(false);
  });

  it("agrees with sameSecret on any sequence of presented and expected tokens", () => {
    const token = fc.constantFrom("alpha-token", "beta-token", "alpha-token ", "", "alpha");
    fc.assert(
      fc.property(fc.array(fc.record({ socket: fc.integer({ min: 0, max: 2 }), given: token, expected: token }), { maxLength: 30 }), (steps) => {
        const sockets = [{}, {}, {}];
        for (const step of steps) expect(sameSecretOn(sockets[step.socket], step.given, step.expected)).toBe(sameSecret(step.given, step.expected));
      }),
      { numRuns: 200 },
    );
  });
});
