// The device listener: HTTPS on the one address the person picked, for paired devices only. It
// serves the page's shell (no data in it: a device that is not paired gets the pairing screen and
// nothing else), the pairing endpoints, the device's WebSocket, and the public routes other
// features mount (signed single-use links). Every request passes ownHost first; every request
// past the shell needs a fresh device proof (proof.ts). The gateway token, per-agent credentials
// and the loopback page's cookie mean nothing here: no code path on this listener reads them.
// Refusals say "Refused." and nothing else, so a guess learns nothing from them.
import { createServer, type Server } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { readJsonBody, HttpError } from "../http/body";
import { targetPath } from "../http/request-target";
import { sendText, writeRaw } from "../http/replies";
import { serveStatic } from "../http/static-files";
import { checkingIntervalMs, holdToDeadlines, socketDeadlines, watchBodyRate, type SocketDeadlines } from "../http/socket-deadlines";
import { MAX_BODY_BYTES } from "../../shared/limits";
import { errorMessage, isPlainObject } from "../../shared/unknown-value";
import type { ListenerCertificate } from "./certificate";
import type { DevicePublicRoute } from "./devices";
import { hostNames, originOf, ownHost, publicEndpoint, type HostNames } from "./host-check";
import type { PairedDevices } from "./paired";
import { DEVICE_PROTOCOL, freshKey, proofOf } from "./proof";
import { AddressLimit } from "./rate-limit";
import { ReplayGuard } from "./replay";
import type { StoredDevice } from "./book";
import { readPushSubscription } from "./book";
import { closeListener } from "../http/close-listener";

export const PAIR_PATH = "/v1/pair";
export const PAIR_STATE_PATH = "/v1/pair/state";
export const PUSH_PATH = "/v1/device/push";
const MAX_PAIR_BODY = 4096;

export interface DeviceListenerOptions {
  address: string;
  port: number;
  publicHost?: string;
  certificate: ListenerCertificate;
  staticDir: string;
  devices: PairedDevices;
  /** A paired device's authenticated WebSocket. */
  onSocket(ws: WebSocket, device: StoredDevice): void;
  /** Read per request, so a route mounted later applies at once. */
  publicRoutes: () => readonly DevicePublicRoute[];
  /** The key a device's page subscribes to push with (VAPID's public key); undefined while none is given. */
  pushKey?: () => Promise<string | undefined>;
  log?: (line: string) => void;
  now?: () => number;
  /** Pairing attempts (and refused keys) per address and minute. */
  attemptsPerMinute?: number;
  /** The nonces seen, kept by the service so a restart of the listener does not forget them. */
  replay?: ReplayGuard;
  deadlines?: Partial<SocketDeadlines>;
}

export interface DeviceListener {
  /** `https://<address or public host>:<port>` */
  url: string;
  port: number;
  close(): Promise<void>;
}

const REFUSED = "Refused.";

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff", "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}

function matches(prefix: string, pathname: string): boolean {
  return pathname === prefix || pathname.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
}

function remote(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? "").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
}

interface Context {
  options: DeviceListenerOptions;
  names: HostNames;
  replay: ReplayGuard;
  attempts: AddressLimit;
  log: (line: string) => void;
}

/** What the request's proof names: a paired device, one waiting for the person, or a refusal (counted). */
function authenticate(req: IncomingMessage, ctx: Context): ReturnType<PairedDevices["check"]> {
  const key = freshKey(proofOf(req), ctx.replay);
  const check = key ? ctx.options.devices.check(key) : ({ state: "refused" } as const);
  if (check.state === "refused") ctx.attempts.take(remote(req));
  return check;
}

async function pair(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  if (req.method !== "POST") return sendText(res, 405, "Use POST.", { allow: "POST" });
  if (!ctx.attempts.take(remote(req))) return sendText(res, 429, REFUSED, { "retry-after": "60" });
  const body = await readJsonBody(req, MAX_PAIR_BODY);
  if (!isPlainObject(body)) return sendText(res, 403, REFUSED);
  const asked = ctx.options.devices.pairing.ask(body.code, body.name, remote(req));
  if (!asked.ok) return sendText(res, 403, REFUSED);
  ctx.options.devices.changed();
  ctx.log(`devices: a device at ${remote(req)} asks to pair; confirm it in Settings`);
  sendJson(res, 201, { id: asked.id, key: asked.key });
}

function pairState(req: IncomingMessage, res: ServerResponse, ctx: Context): void {
  if (req.method !== "GET") return sendText(res, 405, "Use GET.", { allow: "GET" });
  const check = authenticate(req, ctx);
  if (check.state === "refused") return sendText(res, 401, REFUSED);
  if (check.state === "asking") return sendJson(res, 200, { state: "asking" });
  ctx.options.devices.seen(check.device.id);
  sendJson(res, 200, { state: "paired", id: check.device.id, name: check.device.name });
}

/**
 * GET: whether this device is subscribed, and the key its page subscribes with (public, but only
 * a paired device has a use for it). POST: `{subscription}` keeps one, `{subscription: null}`
 * forgets it.
 */
async function push(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  if (req.method !== "POST" && req.method !== "GET") return sendText(res, 405, "Use GET or POST.", { allow: "GET, POST" });
  const check = authenticate(req, ctx);
  if (check.state !== "paired") return sendText(res, 401, REFUSED);
  if (req.method === "GET") {
    const key = await ctx.options.pushKey?.();
    return sendJson(res, 200, { push: check.device.push !== undefined, ...(key ? { key } : {}) });
  }
  const body = await readJsonBody(req, MAX_PAIR_BODY);
  const subscription = isPlainObject(body) && body.subscription !== null ? readPushSubscription(isPlainObject(body) ? body.subscription : undefined) : undefined;
  if (isPlainObject(body) && body.subscription !== null && !subscription) return sendText(res, 422, "Not a push subscription.");
  ctx.options.devices.setPushSubscription(check.device.id, subscription);
  sendJson(res, 200, { push: subscription !== undefined });
}

async function onRequest(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  if (!ownHost(req, ctx.names)) return sendText(res, 403, REFUSED);
  if (ctx.attempts.blocked(remote(req))) return sendText(res, 429, REFUSED, { "retry-after": "60" });
  const pathname = targetPath(req.url);
  if (pathname === undefined) return sendText(res, 400, "Bad request.");
  const route = ctx.options.publicRoutes().find((r) => matches(r.prefix, pathname));
  if (route) return route.handle(req, res);
  if (pathname === PAIR_PATH) return pair(req, res, ctx);
  if (pathname === PAIR_STATE_PATH) return pairState(req, res, ctx);
  if (pathname === PUSH_PATH) return push(req, res, ctx);
  if (pathname.startsWith("/v1/") || pathname === "/ws") return sendText(res, 404, "Not found.");
  if (req.method !== "GET" && req.method !== "HEAD") return sendText(res, 405, "Method not allowed.", { allow: "GET, HEAD" });
  // The shell: the same files the loopback page is built from, and no data.
  await serveStatic(ctx.options.staticDir, pathname, req, res);
}

function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, ctx: Context, wss: WebSocketServer): void {
  socket.on("error", () => {});
  if (!ownHost(req, ctx.names)) return writeRaw(socket, 403, REFUSED);
  if (targetPath(req.url) !== "/ws") return writeRaw(socket, 404, "Not found.");
  if (ctx.attempts.blocked(remote(req))) return writeRaw(socket, 403, REFUSED);
  const check = authenticate(req, ctx);
  if (check.state !== "paired") return writeRaw(socket, 401, REFUSED);
  const device = check.device;
  wss.handleUpgrade(req, socket, head, (ws) => {
    ctx.options.devices.seen(device.id);
    try {
      ctx.options.onSocket(ws, device);
    } catch (error) {
      ctx.log(`devices: a device's socket could not be set up: ${errorMessage(error)}`);
      ws.terminate();
    }
  });
}

function bind(server: Server, port: number, address: string): Promise<void> {
  return new Promise<void>((resolvePromise, reject) => {
    const fail = (error: NodeJS.ErrnoException) => {
      reject(new Error(error.code === "EADDRINUSE" ? `port ${port} on ${address} is taken by another program` : error.code === "EADDRNOTAVAIL" ? `${address} is not an address of this computer` : error.message));
    };
    server.once("error", fail);
    server.listen(port, address, () => {
      server.off("error", fail);
      resolvePromise();
    });
  });
}

export async function startDeviceListener(options: DeviceListenerOptions): Promise<DeviceListener> {
  const log = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES, handleProtocols: (protocols) => (protocols.has(DEVICE_PROTOCOL) ? DEVICE_PROTOCOL : false) });
  const deadlines = socketDeadlines(options.deadlines);
  const server = createServer({ cert: options.certificate.cert, key: options.certificate.key, minVersion: "TLSv1.2", connectionsCheckingInterval: checkingIntervalMs(deadlines) } as Parameters<typeof createServer>[0]);
  holdToDeadlines(server as unknown as import("node:http").Server, deadlines);
  await bind(server, options.port, options.address);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const ctx: Context = {
    options,
    names: hostNames(options.address, port, options.publicHost),
    replay: options.replay ?? new ReplayGuard(now),
    attempts: new AddressLimit(options.attemptsPerMinute ?? 10, 60_000, now),
    log,
  };
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    req.on("error", () => {});
    res.on("error", () => {});
    watchBodyRate(req, deadlines, log);
    onRequest(req, res, ctx).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (status === 500) log(`devices: a request failed: ${errorMessage(error)}`);
      try {
        sendText(res, status, status === 500 ? "Internal error." : errorMessage(error));
      } catch {
        res.destroy();
      }
    });
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      onUpgrade(req, socket, head, ctx, wss);
    } catch (error) {
      log(`devices: upgrade failed: ${errorMessage(error)}`);
      writeRaw(socket, 400, "Bad request.");
    }
  });
  server.on("tlsClientError", () => {});
  server.on("clientError", (_error: Error, socket: Duplex) => {
    socket.on("error", () => {});
    writeRaw(socket, 400, "Bad request.");
  });
  const endpoint = options.publicHost ? publicEndpoint(options.publicHost, port) : { name: options.address.includes(":") ? `[${options.address}]` : options.address, port };
  return {
    url: originOf(endpoint.name, endpoint.port),
    port,
    close: () => closeListener(server, wss),
  };
}
