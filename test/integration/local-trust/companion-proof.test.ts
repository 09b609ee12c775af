// The proof endpoint on the real listener (public, bounded, the HMAC for this nonce and this
// address) and the client's check against hostile answers: each listener that cannot prove
// itself is refused with NotTheCompanion, whatever it sends, and never gets more than the nonce.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { companionPolicy } from "../../../src/main/app/companion-server";
import { startListener, type Listener } from "../../../src/main/http/listener";
import { companionProof, PROOF_PATH } from "../../../src/main/http/companion-proof";
import { NotTheCompanion, proveSocket, PROOF_TIMEOUT_MS } from "../../../src/main/cli/proven-connection";
import { rawRequest } from "../gateway-harness";

const TOKEN = "proof-test-token-0123456789";
let listener: Listener;
let host: string;

beforeAll(async () => {
  listener = await startListener({ port: 0, token: () => TOKEN, staticDir: mkdtempSync(join(tmpdir(), "tnc-static-")), ...companionPolicy(() => TOKEN, []) });
  host = new URL(listener.url).host;
});
afterAll(async () => {
  await listener?.close();
});

const NONCE = Buffer.alloc(32, 1).toString("base64url");

describe("GET /v1/companion-proof", () => {
  it("answers the HMAC over this nonce and the listener's own address, without the token", async () => {
    const res = await rawRequest(`${listener.url}${PROOF_PATH}?nonce=${NONCE}`, { method: "GET", headers: { host } });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const { proof } = JSON.parse(res.body) as { proof: string };
    expect(proof).toBe(companionProof(TOKEN, NONCE, `127.0.0.1:${listener.port}`));
    expect(proof).not.toBe(companionProof(TOKEN, NONCE, `127.0.0.1:${listener.port + 1}`));
    expect(proof).not.toBe(companionProof("other-token", NONCE, `127.0.0.1:${listener.port}`));
    expect(res.body).not.toContain(TOKEN);
  });

  it("takes exactly a 32-byte base64url nonce, GET only, a loopback Host only", async () => {
    for (const nonce of ["", "abc", `${NONCE}A`, NONCE.slice(1), `${NONCE.slice(0, 42)}=`, "x".repeat(5000)]) {
      const res = await rawRequest(`${listener.url}${PROOF_PATH}?nonce=${encodeURIComponent(nonce)}`, { method: "GET", headers: { host } });
      expect(res.status).toBe(400);
    }
    expect((await rawRequest(`${listener.url}${PROOF_PATH}?nonce=${NONCE}`, { method: "POST", headers: { host }, body: "" })).status).toBe(405);
    expect((await rawRequest(`${listener.url}${PROOF_PATH}/x?nonce=${NONCE}`, { method: "GET", headers: { host } })).status).toBe(404);
    expect((await rawRequest(`${listener.url}${PROOF_PATH}?nonce=${NONCE}`, { method: "GET", headers: { host: "evil.example" } })).status).toBe(403);
  });

  it("proveSocket accepts the real listener and leaves the connection usable", async () => {
    const socket = connect(listener.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    await proveSocket(socket, host, TOKEN, host);
    // The same connection then carries an ordinary request.
    const reply = new Promise<string>((resolve) => socket.once("data", (d: Buffer) => resolve(d.toString("latin1"))));
    socket.write(`GET ${PROOF_PATH}?nonce=${NONCE} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    expect(await reply).toMatch(/^HTTP\/1\.1 200 /);
    socket.destroy();
  });
});

/** A raw TCP listener that answers the first bytes it gets with `answer` and records them. */
async function hostile(answer: (socket: Socket, got: string) => void): Promise<{ server: Server; port: number; got: string[] }> {
  const got: string[] = [];
  const server = createServer((socket) => {
    socket.on("error", () => {});
    socket.once("data", (d: Buffer) => {
      got.push(d.toString("latin1"));
      answer(socket, d.toString("latin1"));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as { port: number }).port, got };
}

const ok = (body: string, extra = "") => `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe("proveSocket against listeners that are not the companion", () => {
  const cases: Array<[string, (socket: Socket, got: string) => void]> = [
    ["a wrong proof", (s) => s.end(ok(JSON.stringify({ proof: Buffer.alloc(32).toString("base64url") })))],
    ["a proof computed with another token", (s, got) => s.write(ok(JSON.stringify({ proof: companionProof("guess", /nonce=([^ ]+)/.exec(got)![1], `127.0.0.1:${s.localPort}`) })))],
    ["a 401", (s) => s.end("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n")],
    ["a chunked answer", (s) => s.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")],
    ["no Content-Length", (s) => s.end('HTTP/1.1 200 OK\r\n\r\n{"proof":"x"}')],
    ["bytes after the answer", (s) => s.write(ok('{"proof":"x"}') + "HTTP/1.1 200 OK\r\n")],
    ["endless headers", (s) => s.write(`HTTP/1.1 200 OK\r\nX: ${"a".repeat(20_000)}`)],
    ["not HTTP", (s) => s.write("SSH-2.0-OpenSSH_9.2\r\n")],
    ["a hang-up", (s) => s.destroy()],
  ];
  for (const [name, answer] of cases) {
    it(`refuses ${name}`, async () => {
      const fake = await hostile(answer);
      try {
        const socket = connect(fake.port, "127.0.0.1");
        await new Promise((resolve) => socket.once("connect", resolve));
        const where = `127.0.0.1:${fake.port}`;
        const error = await proveSocket(socket, where, TOKEN, where).then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(NotTheCompanion);
        expect((error as Error).message).toContain(`something else is listening on ${where} (it could not prove it is the companion)`);
        expect(socket.destroyed).toBe(true);
        expect(fake.got.join("")).not.toContain(TOKEN);
      } finally {
        fake.server.close();
      }
    });
  }

  it(`refuses one that never answers, after ${PROOF_TIMEOUT_MS / 1000} s`, async () => {
    const fake = await hostile(() => {});
    try {
      const socket = connect(fake.port, "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      const started = Date.now();
      const error = await proveSocket(socket, "x", TOKEN, "x").then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(NotTheCompanion);
      expect(Date.now() - started).toBeLessThan(PROOF_TIMEOUT_MS + 1000);
    } finally {
      fake.server.close();
    }
  }, PROOF_TIMEOUT_MS + 5000);
});
