// The loopback listener over real HTTP and WebSocket connections: every refusal with its status.
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { request } from "node:http";
import { mkdtemp, mkdir, writeFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "ws";
import { startListener, type Listener } from "../../src/main/http/listener";
import { readJsonBody } from "../../src/main/http/body";
import { gatewayChallenge } from "../../src/main/gateway/token-refusal";
import { rawExchange, rawRequestBytes, upgradeHeaders } from "../fuzz/http-raw-client";

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; chunked?: boolean } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...options.headers };
    const req = request({ host: "127.0.0.1", port, path, method: options.method ?? "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    if (options.body !== undefined) {
      if (options.chunked) {
        // No Content-Length: the limit must hold while reading.
        const body = Buffer.from(options.body);
        for (let i = 0; i < body.length; i += 256 * 1024) req.write(body.subarray(i, i + 256 * 1024));
      } else req.write(options.body);
    }
    req.end();
  });
}

function upgrade(port: number, path: string, headers: Record<string, string>): Promise<{ opened: boolean; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
    ws.on("open", () => {
      ws.close();
      resolve({ opened: true });
    });
    ws.on("unexpected-response", (_req, res) => {
      resolve({ opened: false, status: res.statusCode });
      res.resume();
    });
    ws.on("error", () => resolve({ opened: false }));
  });
}

const TOKEN = "test-token-0123456789";
let listener: Listener;
let dir: string;
let port: number;
let cookie: string;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-static-"));
  await mkdir(join(dir, "assets"));
  await writeFile(join(dir, "index.html"), "<!doctype html><title>Companion</title>");
  await writeFile(join(dir, "assets", "app-123.js"), "console.log('hi')");
  listener = await startListener({
    port: 0,
    token: () => TOKEN,
    staticDir: dir,
    challenge: gatewayChallenge,
    routes: [
      {
        prefix: "/echo",
        async handle(req, res) {
          const body = await readJsonBody(req);
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ got: body }));
        },
      },
    ],
    onSocket: (ws) => {
      sockets.push(ws);
      ws.send("hello");
    },
  });
  port = listener.port;
  const signIn = await send(port, `/?token=${TOKEN}`);
  cookie = String(signIn.headers["set-cookie"]).split(";")[0];
});

afterAll(async () => {
  await listener.close();
  await rm(dir, { recursive: true, force: true });
});

describe("listener basics", () => {
  it("listens on 127.0.0.1 and refuses any other host", async () => {
    expect(listener.url).toBe(`http://127.0.0.1:${port}`);
    await expect(startListener({ host: "0.0.0.0" as "127.0.0.1", port: 0, token: () => TOKEN, staticDir: dir })).rejects.toThrow(/127\.0\.0\.1 only/);
  });
  it("prints a page link that carries the token", () => {
    expect(listener.pageUrl()).toBe(`http://127.0.0.1:${port}/?token=${TOKEN}`);
  });
});

describe("the page", () => {
  it("trades the token in the link for an HttpOnly SameSite=Strict cookie and drops it from the address", async () => {
    const r = await send(port, `/?token=${TOKEN}`);
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe("/");
    const setCookie = String(r.headers["set-cookie"]);
    expect(setCookie).toMatch(new RegExp(`^tnc_session_${port}=`));
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    expect(setCookie).not.toContain(TOKEN);
  });
  it("refuses a wrong token in the link", async () => {
    expect((await send(port, "/?token=wrong")).status).toBe(401);
  });
  it("refuses the page without the cookie", async () => {
    const r = await send(port, "/");
    expect(r.status).toBe(401);
    expect(r.body).toMatch(/link/);
  });
  it("refuses assets without the cookie", async () => {
    expect((await send(port, "/assets/app-123.js")).status).toBe(401);
  });
  it("refuses a wrong cookie", async () => {
    expect((await send(port, "/", { headers: { cookie: `tnc_session_${port}=forged` } })).status).toBe(401);
  });
  it("serves the page and assets with the cookie, the page with a CSP", async () => {
    const page = await send(port, "/", { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain("<title>Companion</title>");
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    // The page shows server-controlled text: no eval and no inline script may run in it.
    expect(page.headers["content-security-policy"]).toContain("script-src 'self';");
    expect(page.headers["content-security-policy"]).not.toContain("unsafe-eval");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    const asset = await send(port, "/assets/app-123.js", { headers: { cookie } });
    expect(asset.status).toBe(200);
    expect(asset.headers["content-type"]).toContain("javascript");
  });
  it("falls back to index.html for app paths and 404s missing assets", async () => {
    expect((await send(port, "/servers", { headers: { cookie } })).status).toBe(200);
    expect((await send(port, "/assets/missing.js", { headers: { cookie } })).status).toBe(404);
  });
  it("never serves files outside the renderer folder", async () => {
    const r = await send(port, "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", { headers: { cookie } });
    expect(r.body).not.toContain("root:");
  });
  it("refuses the page on a rebinding Host even with the cookie", async () => {
    expect((await send(port, "/", { headers: { cookie, host: `attacker.example:${port}` } })).status).toBe(403);
    expect((await send(port, `/?token=${TOKEN}`, { headers: { host: "attacker.example" } })).status).toBe(403);
  });
  it("refuses methods other than GET and HEAD on the page", async () => {
    expect((await send(port, "/", { method: "POST", headers: { cookie } })).status).toBe(405);
  });
});

describe("routes (bearer token only)", () => {
  const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  it("passes a good request through", async () => {
    const r = await send(port, "/echo", { method: "POST", headers: auth, body: '{"a":1}' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ got: { a: 1 } });
  });
  it("refuses no token with 401 and a WWW-Authenticate header", async () => {
    const r = await send(port, "/echo", { method: "POST", body: "{}" });
    expect(r.status).toBe(401);
    expect(r.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(JSON.parse(r.body).error.message).toMatch(/token/);
  });
  it("refuses a wrong token with 401", async () => {
    expect((await send(port, "/echo", { method: "POST", headers: { authorization: "Bearer wrong" }, body: "{}" })).status).toBe(401);
  });
  it("refuses the page cookie on a route", async () => {
    expect((await send(port, "/echo", { method: "POST", headers: { cookie }, body: "{}" })).status).toBe(401);
  });
  it("refuses a foreign Origin with 403", async () => {
    expect((await send(port, "/echo", { method: "POST", headers: { ...auth, origin: "https://evil.example" }, body: "{}" })).status).toBe(403);
  });
  it("refuses a non-loopback Host with 403", async () => {
    expect((await send(port, "/echo", { method: "POST", headers: { ...auth, host: "attacker.example" }, body: "{}" })).status).toBe(403);
  });
  it("refuses a 5 MiB body with 413 (declared length)", async () => {
    const big = Buffer.alloc(5 * 1024 * 1024, 0x20);
    expect((await send(port, "/echo", { method: "POST", headers: auth, body: big })).status).toBe(413);
  });
  it("refuses a 5 MiB chunked body with 413 (counted while reading)", async () => {
    const big = Buffer.alloc(5 * 1024 * 1024, 0x20);
    expect((await send(port, "/echo", { method: "POST", headers: auth, body: big, chunked: true })).status).toBe(413);
  });
  it("refuses malformed JSON with 400", async () => {
    const r = await send(port, "/echo", { method: "POST", headers: auth, body: "{nope" });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.message).toMatch(/not valid JSON/);
  });
  it("accepts a body just under the limit", async () => {
    const json = JSON.stringify({ s: "x".repeat(4 * 1024 * 1024 - 16) });
    expect((await send(port, "/echo", { method: "POST", headers: auth, body: json })).status).toBe(200);
  });
});

describe("the WebSocket at /ws", () => {
  const origin = () => `http://127.0.0.1:${port}`;
  it("opens with the cookie from the page's own origin", async () => {
    expect(await upgrade(port, "/ws", { cookie, origin: origin() })).toEqual({ opened: true });
  });
  it("opens with the bearer token (non-browser clients)", async () => {
    expect(await upgrade(port, "/ws", { authorization: `Bearer ${TOKEN}` })).toEqual({ opened: true });
  });
  it("refuses no cookie with 401", async () => {
    expect(await upgrade(port, "/ws", { origin: origin() })).toEqual({ opened: false, status: 401 });
  });
  it("refuses a foreign Origin with 403", async () => {
    expect(await upgrade(port, "/ws", { cookie, origin: "https://evil.example" })).toEqual({ opened: false, status: 403 });
  });
  it("refuses another loopback origin riding the cookie with 403", async () => {
    expect(await upgrade(port, "/ws", { cookie, origin: "http://localhost:3000" })).toEqual({ opened: false, status: 403 });
  });
  it("refuses a non-loopback Host with 403", async () => {
    expect(await upgrade(port, "/ws", { cookie, host: "attacker.example" })).toEqual({ opened: false, status: 403 });
  });
  it("refuses other upgrade paths with 404", async () => {
    expect(await upgrade(port, "/other", { cookie, origin: origin() })).toEqual({ opened: false, status: 404 });
  });
});

// Each of these once threw out of a handler: a 500 for a plain request, and the end of the process
// for an upgrade (the `upgrade` event runs outside any request handler).
describe("hostile requests: a clear 400, and the listener keeps serving", () => {
  const alive = async () => expect((await send(port, "/", { headers: { cookie } })).status).toBe(200);
  const host = () => `127.0.0.1:${port}`;

  it.each(["//", "//evil.example/x", "http://[", "http://[::1/", "%E0%A4%A", "*", "/%00"])("a page request with target %s", async (target) => {
    const reply = await rawExchange(port, rawRequestBytes(target, { Host: host(), Cookie: cookie }));
    expect([200, 400, 404]).toContain(reply.status);
    expect(reply.status).not.toBe(500);
    await alive();
  });

  it("a malformed target answers 400 with the reason (`//` is a path on our origin, never another host)", async () => {
    const slashes = await rawExchange(port, rawRequestBytes("//", { Host: host(), Cookie: cookie }));
    expect(slashes.status).toBe(200);
    expect(slashes.text).toContain("<title>Companion</title>");
    for (const target of ["http://[", "*", "ftp://x/"]) {
      const reply = await rawExchange(port, rawRequestBytes(target, { Host: host(), Cookie: cookie }));
      expect(reply.status).toBe(400);
      expect(reply.text).toMatch(/request target/);
    }
  });

  it("a malformed session cookie answers 400, never 500", async () => {
    const reply = await rawExchange(port, rawRequestBytes("/", { Host: host(), Cookie: `tnc_session_${port}=%E0%A4%A` }));
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/cookie is malformed/);
    await alive();
  });

  it("an upgrade with a malformed cookie and no token gets a 400 written to its socket", async () => {
    const reply = await rawExchange(port, rawRequestBytes("/ws", upgradeHeaders(port, { Cookie: `tnc_session_${port}=%E0%A4%A`, Origin: `http://127.0.0.1:${port}` })));
    expect(reply.status).toBe(400);
    await alive();
  });

  it("a foreign page on another localhost port, malformed cookie or not, never gets past the guard", async () => {
    for (const value of ["%E0%A4%A", "forged", cookie.split("=")[1]]) {
      const reply = await rawExchange(port, rawRequestBytes("/ws", upgradeHeaders(port, { Cookie: `tnc_session_${port}=${value}`, Origin: "http://localhost:3999" })));
      expect([400, 403]).toContain(reply.status);
    }
    await alive();
  });

  it("an upgrade with a malformed target gets a 400", async () => {
    for (const target of ["//", "http://[", "//ws"]) {
      const reply = await rawExchange(port, rawRequestBytes(target, upgradeHeaders(port, { Cookie: cookie })));
      expect([400, 404]).toContain(reply.status);
    }
    expect((await rawExchange(port, rawRequestBytes("http://[", upgradeHeaders(port, { Cookie: cookie })))).status).toBe(400);
    await alive();
  });

  it("bytes that are not HTTP get a 400 and a closed connection", async () => {
    const reply = await rawExchange(port, "\x00\x01 not http at all\r\n\r\n");
    expect(reply.status).toBe(400);
    await alive();
  });

  it("a route with a malformed target answers in its own error shape, not 500", async () => {
    const reply = await rawExchange(port, rawRequestBytes("//echo", { Host: host(), Authorization: `Bearer ${TOKEN}` }, "POST"));
    expect(reply.status).not.toBe(500);
    await alive();
  });

  it("a body nested 10k levels deep is refused 422 with the reason before any handler keeps it", async () => {
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const r = await send(port, "/echo", { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, body: deep });
    expect(r.status).toBe(422);
    expect(JSON.parse(r.body).error.message).toMatch(/nested more than 64 levels/);
    await alive();
  });
});
