// Properties of /v1/requests: the Request check never throws on any value, and any body posted to
// the real endpoint (any JSON, nesting thousands of levels deep, junk) is answered 200 with an
// Answer (the scripted person declines at once), or refused 400/413/422/429 — never 500.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPostedRequest } from "../../src/main/gateway";
import { rawRequest, startCompanion, type Companion } from "../integration/gateway-harness";

let companion: Companion;
let host: string;

beforeAll(async () => {
  companion = await startCompanion({ everything: false });
  host = new URL(companion.listener.url).host;
  // A person who declines everything at once, so admitted questions end quickly.
  companion.inbox.on((event) => {
    if (event.type !== "added") return;
    queueMicrotask(() => {
      try {
        companion.inbox.answer(event.entry.request.id, { ok: false, reason: "declined" });
      } catch {
        // Already gone (it expired or its poster left): nothing to answer.
      }
    });
  });
});
afterAll(() => companion?.close());

function post(body: string) {
  return rawRequest(`${companion.listener.url}/v1/requests`, {
    headers: { host, "content-type": "application/json", authorization: `Bearer ${companion.token}` },
    body,
  });
}

const nested = fc.tuple(fc.integer({ min: 1, max: 12_000 }), fc.constantFrom("[", '{"a":')).map(([n, open]) => {
  const close = open === "[" ? "]" : "}";
  return `{"id":"deep","kind":"input","prompt":"?","data":{"schema":${open.repeat(n)}1${close.repeat(n)}}}`;
});
const requestLike = fc.record(
  {
    id: fc.oneof(fc.string({ maxLength: 300 }), fc.integer()),
    kind: fc.oneof(fc.constantFrom("input", "authorization", "approval"), fc.string({ maxLength: 10 })),
    prompt: fc.oneof(fc.string({ maxLength: 50 }), fc.jsonValue({ maxDepth: 2 })),
    url: fc.oneof(fc.webUrl(), fc.string({ maxLength: 30 })),
    data: fc.jsonValue({ maxDepth: 8 }),
    expiresAt: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.string({ maxLength: 30 })),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  requestLike.map((r) => JSON.stringify(r)),
  fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 100 }),
  nested,
);

describe("/v1/requests properties", () => {
  it("checkRequest never throws, whatever the value", () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything({ maxDepth: 6 }), requestLike), (value) => {
        const checked = checkPostedRequest(value);
        expect(typeof checked.ok).toBe("boolean");
        if (!checked.ok) expect(checked.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it("every body is answered 200 or refused 400/413/422/429, never 500", async () => {
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const res = await post(text);
        expect([200, 400, 413, 422, 429]).toContain(res.status);
        if (res.status !== 200) expect(JSON.parse(res.body).error.message).toEqual(expect.any(String));
      }),
      { numRuns: 120, interruptAfterTimeLimit: 8000 },
    );
    expect(companion.inbox.list()).toEqual([]);
  });

  it("a body nested 10k levels deep is a 400 naming the limit, and the endpoint keeps serving", async () => {
    const res = await post(`{"id":"d","kind":"input","prompt":"?","data":${'{"x":'.repeat(10_000)}1${"}".repeat(10_000)}}`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.message).toMatch(/nested more than 64 levels/);
    const ok = await post(JSON.stringify({ id: "after-deep", kind: "input", prompt: "still here?" }));
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ id: "after-deep", ok: false, reason: "declined" });
  });
});
