// Peers that hold the listener's sockets without sending what they owe: headers trickled a byte a
// second, bad headers from a client that never reads, a body trickled after its headers, an idle
// keep-alive socket. Sockets are descriptors; a few hundred held ones once locked every agent out.
// Each is closed within its deadline (lowered here so the test is fast), while a real agent's
// request is still served.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type Socket } from "node:net";
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startListener, type Listener } from "../../../src/main/http/listener";
import type { SocketDeadlines } from "../../../src/main/http/socket-deadlines";
import {
  HTTP_BODY_GRACE_MS,
  HTTP_BODY_MIN_BYTES_PER_S,
  HTTP_HEADERS_TIMEOUT_MS,
  HTTP_KEEP_ALIVE_TIMEOUT_MS,
  HTTP_REQUEST_TIMEOUT_MS,
} from "../../../src/shared/limits";
import { becomesTrue } from "../../helpers/poll";

const TOKEN = "slow-sockets-token";
let listener: Listener | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await listener?.close();
  listener = undefined;
});

async function start(deadlines?: Partial<SocketDeadlines>): Promise<Listener> {
  listener = await startListener({
    port: 0,
    token: () => TOKEN,
    staticDir: mkdtempSync(join(tmpdir(), "tnc-slow-")),
    routes: [{ prefix: "/echo", handle: (_req, res) => void res.end("ok") }],
    deadlines,
  });
  return listener;
}

/** A client that never reads (paused) and never closes its side: the worst peer to leave open. */
function deafSocket(port: number): Promise<{ socket: Socket; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let closed = false;
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    sockets.push(socket);
    socket.pause();
    socket.on("error", () => {});
    socket.on("close", () => (closed = true));
    socket.once("connect", () => resolve({ socket, closed: () => closed }));
    socket.once("error", reject);
  });
}

/** Writes one byte every `ms` until the socket closes: once the server has let go, a write meets a reset. */
function trickle(socket: Socket, bytes: string, ms: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer);
    socket.write(bytes[i++ % bytes.length]);
  }, ms);
  timer.unref();
  socket.once("close", () => clearInterval(timer));
}

function agentRequest(port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: "127.0.0.1", path: "/echo", headers: { authorization: `Bearer ${TOKEN}` }, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * Sockets the listener's process still holds on `port`, as the kernel lists them: accepted
 * connections (not the listening socket) that still belong to a descriptor (inode not 0). A socket
 * the server destroyed may linger in the table as FIN_WAIT, but no descriptor holds it.
 */
function heldSockets(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  return readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length > 9 && f[1].endsWith(`:${hex}`) && f[3] !== "0A" && f[9] !== "0").length;
}

describe("socket deadlines", () => {
  it("the production listener sets the header, request and keep-alive deadlines from limits.ts", async () => {
    const { deadlines } = await start();
    expect(deadlines()).toEqual({
      headersMs: HTTP_HEADERS_TIMEOUT_MS,
      requestMs: HTTP_REQUEST_TIMEOUT_MS,
      keepAliveMs: HTTP_KEEP_ALIVE_TIMEOUT_MS,
      bodyGraceMs: HTTP_BODY_GRACE_MS,
      bodyMinBytesPerS: HTTP_BODY_MIN_BYTES_PER_S,
    });
    // Node's own defaults (60 s headers, 300 s request) are not what we rely on.
    expect(HTTP_HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(10_000);
    expect(HTTP_REQUEST_TIMEOUT_MS).toBeLessThan(300_000);
  });

  it("300 sockets trickling headers a byte a second are closed within the deadline; an agent is served meanwhile", async () => {
    const { port } = await start({ headersMs: 1500 });
    const peers = await Promise.all(Array.from({ length: 300 }, () => deafSocket(port)));
    const started = Date.now();
    for (const { socket } of peers) trickle(socket, `GET /echo HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: ${"a".repeat(100)}`, 1000);
    expect(await agentRequest(port)).toEqual({ status: 200, body: "ok" });
    expect(await becomesTrue(() => heldSockets(port) === 300, 3000)).toBe(true);
    // Deadline 1.5 s, Node's check every 375 ms, 0.5 s for the 408 to be read: the server lets go.
    expect(await becomesTrue(() => heldSockets(port) === 0, 8000)).toBe(true);
    // Node's own default would be 60 s for the headers (and then the socket was left half-open).
    expect(Date.now() - started).toBeLessThan(6000);
    expect(await agentRequest(port)).toEqual({ status: 200, body: "ok" });
    // Each peer finds out at its next byte, which meets a closed socket.
    expect(await becomesTrue(() => peers.every((p) => p.closed()), 3000)).toBe(true);
  }, 20_000);

  it("clients that send bad headers and never read have their sockets destroyed, not left half-closed", async () => {
    const { port } = await start();
    // They neither read nor close nor write again: only the server can let go of its end.
    const peers = await Promise.all(Array.from({ length: 20 }, () => deafSocket(port)));
    expect(await becomesTrue(() => heldSockets(port) === 20, 2000)).toBe(true);
    for (const { socket } of peers) socket.write("NOT HTTP AT ALL\r\n\r\n");
    expect(await becomesTrue(() => heldSockets(port) === 0, 3000)).toBe(true);
    // And a peer that writes again meets a closed socket.
    trickle(peers[0].socket, "x", 50);
    expect(await becomesTrue(peers[0].closed, 2000)).toBe(true);
  });

  it("a body trickled after its headers is cut once it falls below the least rate after the grace", async () => {
    const { port } = await start({ bodyGraceMs: 500, bodyMinBytesPerS: 1024 });
    const peer = await deafSocket(port);
    peer.socket.write(`POST /echo HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: 100000\r\n\r\n`);
    const started = Date.now();
    trickle(peer.socket, "b", 100);
    expect(await becomesTrue(peer.closed, 4000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it("an idle keep-alive socket is closed after keepAliveMs", async () => {
    const { port } = await start({ keepAliveMs: 300 });
    const socket = connect({ port, host: "127.0.0.1" });
    sockets.push(socket);
    let closed = false;
    let answer = "";
    socket.on("close", () => (closed = true));
    socket.on("data", (c) => (answer += c));
    socket.write(`GET /echo HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: keep-alive\r\n\r\n`);
    expect(await becomesTrue(() => answer.includes("ok"), 2000)).toBe(true);
    expect(await becomesTrue(() => closed, 1500)).toBe(true);
  });
});
