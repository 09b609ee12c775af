// Property over real sockets: garbage request targets, cookies and upgrade headers sent to a real
// listener never get a 500 or a dropped connection without an answer, and the listener keeps
// serving a normal request after each batch.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startListener, type Listener } from "../../src/main/http/listener";
import { readJsonBody } from "../../src/main/http/body";
import { rawExchange, rawRequestBytes, upgradeHeaders } from "./http-raw-client";

const TOKEN = "fuzz-raw-token-0123456789";
let listener: Listener;
let port: number;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "tnc-fuzz-static-"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>fuzz</title>");
  listener = await startListener({
    port: 0,
    token: () => TOKEN,
    staticDir: dir,
    routes: [
      {
        prefix: "/echo",
        async handle(req, res) {
          const body = await readJsonBody(req);
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ got: body }));
        },
      },
    ],
    onSocket: (ws) => ws.close(1000, "fuzz"),
  });
  port = listener.port;
});
afterAll(() => listener.close());

// Request-line-safe text: no spaces or line breaks (those make it non-HTTP, tested separately).
const targetChar = fc.constantFrom(..."/%?#[]:@!$&'()*+,;=abcXYZ019-._~\\^`{|}\"<>".split(""), "%E0%A4%A", "%00", "http://", "//", "\u00e9");
const target = fc.array(targetChar, { minLength: 1, maxLength: 30 }).map((chars) => chars.join(""));
const headerText = fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("%E0%A4%A", "%", "=", ";", "http://[", "tnc_session")), { maxLength: 5 })
  .map((parts) => parts.join("").replace(/[\r\n\0]/g, ""));

async function stillServes(): Promise<void> {
  const reply = await rawExchange(port, rawRequestBytes("/echo", { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${TOKEN}`, "Content-Length": "2" }, "POST") + "{}");
  expect(reply.status).toBe(200);
}

describe("raw HTTP properties", () => {
  it("any target and cookie on the page, a route or an upgrade: an answer, never 500", async () => {
    await fc.assert(
      fc.asyncProperty(target, headerText, fc.constantFrom("page", "route", "upgrade"), async (t, cookie, kind) => {
        const host = `127.0.0.1:${port}`;
        const cookieHeader = `tnc_session_${port}=${cookie}`;
        const bytes =
          kind === "upgrade"
            ? rawRequestBytes(t, upgradeHeaders(port, { Cookie: cookieHeader, Origin: `http://${host}` }))
            : kind === "route"
              ? rawRequestBytes(t.startsWith("/") ? `/echo${t}` : t, { Host: host, Authorization: `Bearer ${TOKEN}`, "Content-Length": "2" }, "POST") + "{}"
              : rawRequestBytes(t, { Host: host, Cookie: cookieHeader });
        const reply = await rawExchange(port, bytes);
        expect(reply.status).toBeGreaterThanOrEqual(200);
        expect(reply.status).toBeLessThan(500);
      }),
      { numRuns: 150, interruptAfterTimeLimit: 8000 },
    );
    await stillServes();
  });

  it("bytes that are not HTTP get a 4xx or a closed socket, and the listener lives on", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", minLength: 1, maxLength: 200 }), async (junk) => {
        const reply = await rawExchange(port, `${junk}\r\n\r\n`, 1500);
        if (reply.status !== 0) expect(reply.status).toBeLessThan(500);
      }),
      { numRuns: 100, interruptAfterTimeLimit: 8000 },
    );
    await stillServes();
  });
});
