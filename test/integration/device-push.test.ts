// A paired phone turns notifications on, end to end through the real core: it asks the device
// listener for the VAPID key (GET /v1/device/push, behind its proof), hands over a subscription
// whose endpoint is a push service of the test's own (HTTPS on loopback, a certificate this test
// made and trusts alone), and a question not answered at the desk arrives there two minutes later
// (reach's clock, a fake one) encrypted to the phone's keys: decrypted here with an independent
// RFC 8291 implementation (http_ece), it links to the question on the device listener. Answered
// from the phone's socket, the question's notification is withdrawn by a close message.
import { createECDH, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ece from "http_ece";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../src/main/app/core";
import { browserPlatform } from "../../src/main/app/serve";
import { ownCertificate } from "../../src/main/devices/certificate";
import { DEVICE_PROTOCOL } from "../../src/main/devices/proof";
import { inboxWaitFor } from "../../src/main/inbox";
import { pushTag } from "../../src/main/reach/push";
import type { DevicesState } from "../../src/shared/devices";
import { httpsCall, invoke, openDeviceSocket, proof } from "../helpers/device-client";
import { FakeClock } from "../helpers/fake-clock";
import { until } from "../helpers/poll";

interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

let core: Core;
let pushService: Server;
let pushOrigin: string;
let url: string;
let host: string;
// Node's fetch (reach/outbound.ts sends with it) keeps its dispatcher here; the test swaps in one
// of the same class that trusts the push service's certificate, and puts the first one back.
const DISPATCHER = Symbol.for("undici.globalDispatcher.1");
const slot = globalThis as unknown as Record<symbol, { constructor: new (options: unknown) => unknown } | undefined>;
let dispatcher: unknown;
const received: Received[] = [];
const log: string[] = [];
const clock = new FakeClock(Date.now());
const loopbackAddress = [{ address: "127.0.0.1", interface: "lo-test", family: "IPv4" as const, tailnet: false }];

const call = <T>(channel: string, arg?: unknown): Promise<T> => (core.handlers as any)[channel](arg) as Promise<T>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "tnc-device-push-"));
  const staticDir = join(dir, "page");
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, "index.html"), "<!doctype html><title>device shell</title>");
  // The push service: HTTPS, as a subscription's endpoint must be; its certificate is trusted by
  // this process's fetch and nothing else (no blanket "accept any certificate").
  const certificate = await ownCertificate(join(dir, "push-service"), "127.0.0.1");
  pushService = createServer({ cert: certificate.cert, key: certificate.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, "127.0.0.1", resolve));
  pushOrigin = `https://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
  // A first request makes fetch create its dispatcher (refused: the certificate is not trusted yet).
  await expect(fetch(pushOrigin)).rejects.toThrow();
  dispatcher = slot[DISPATCHER];
  slot[DISPATCHER] = new slot[DISPATCHER]!.constructor({ connect: { ca: certificate.cert } }) as never;

  core = await createCore({
    config: { mcpServers: {} },
    platform: browserPlatform,
    historyPath: join(dir, "history.db"),
    devices: { dir: join(dir, "devices"), staticDir, addresses: () => loopbackAddress },
    reach: { clock },
    log: (line) => log.push(line),
  });
  const state = await call<DevicesState>("devices:configure", { enabled: true, address: "127.0.0.1", port: 0, certificate: { kind: "own" } });
  expect(state.problem).toBeUndefined();
  url = state.url!;
  host = new URL(url).host;
});

afterAll(async () => {
  await core?.close();
  if (dispatcher) slot[DISPATCHER] = dispatcher as never;
  await new Promise<void>((resolve) => (pushService ? pushService.close(() => resolve()) : resolve()));
});

async function pairPhone(): Promise<string> {
  const offer = await call<DevicesState>("devices:startPairing");
  const code = offer.offer!.link.split("#/pair/")[1];
  const asked = await httpsCall(`${url}/v1/pair`, { method: "POST", headers: { host, "content-type": "application/json" }, body: JSON.stringify({ code, name: "Phone" }) });
  expect(asked.status).toBe(201);
  const device = JSON.parse(asked.body) as { id: string; key: string };
  await call("devices:confirm", { id: device.id, ok: true });
  return device.key;
}

describe("notifications on a paired phone", () => {
  it("gives the VAPID key only to a paired device, stores its subscription, pushes a waiting question to it and withdraws it once answered", async () => {
    const key = await pairPhone();
    const pushPath = `${url}/v1/device/push`;

    // The key, behind the device proof.
    expect((await httpsCall(pushPath, { headers: { host } })).status).toBe(401);
    expect((await httpsCall(pushPath, { headers: { host, "x-device-proof": proof("not-a-key") } })).status).toBe(401);
    const before = await httpsCall(pushPath, { headers: { host, "x-device-proof": proof(key) } });
    expect(before.status).toBe(200);
    const told = JSON.parse(before.body) as { push: boolean; key: string };
    expect(told).toEqual({ push: false, key: await core.reach.vapidPublicKey() });
    expect(Buffer.from(told.key, "base64url")).toHaveLength(65);

    // The phone's side of a subscription (what PushManager.subscribe makes): its keys, the endpoint.
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16).toString("base64url");
    const subscription = { endpoint: `${pushOrigin}/push/phone-1`, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth } };
    const post = (body: unknown) => httpsCall(pushPath, { method: "POST", headers: { host, "content-type": "application/json", "x-device-proof": proof(key) }, body: JSON.stringify(body) });
    expect((await post({ subscription: { endpoint: "http://insecure.example/push", keys: subscription.keys } })).status).toBe(422);
    const stored = await post({ subscription });
    expect(stored.status).toBe(200);
    expect(JSON.parse(stored.body)).toEqual({ push: true });
    expect(core.deviceRegistry()!.list()[0].push?.endpoint).toBe(subscription.endpoint);
    expect(JSON.parse((await httpsCall(pushPath, { headers: { host, "x-device-proof": proof(key) } })).body).push).toBe(true);

    const decrypt = (body: Buffer) => JSON.parse(ece.decrypt(body, { version: "aes128gcm", privateKey: ecdh, authSecret: auth }).toString("utf8")) as Record<string, unknown>;

    // A question in the Inbox, not answered at the desk: at two minutes, the phone is pushed.
    const answered = inboxWaitFor(core.internals.inbox)(
      { id: "deploy-1", kind: "input", prompt: "Which environment?", data: { schema: { type: "object", properties: { env: { type: "string" } } } } },
      { server: "release", signal: new AbortController().signal },
    );
    await until(() => core.internals.inbox.list().length === 1, 5000, "the question in the Inbox");
    clock.advance(60_000);
    expect(received).toHaveLength(0);
    clock.advance(61_000);
    const [push] = await until(() => received.length >= 1 && received, 5000, () => `the push at the push service; the log: ${log.join("\n")}`);
    expect(push.path).toBe("/push/phone-1");
    expect(push.headers["content-encoding"]).toBe("aes128gcm");
    expect(String(push.headers.authorization)).toContain(`k=${told.key}`);
    const message = decrypt(push.body);
    expect(message).toMatchObject({ type: "question", id: "deploy-1", tag: pushTag("deploy-1"), body: "Which environment?", url: `${url}/#/q/deploy-1` });
    expect(push.body.toString("latin1")).not.toContain("Which environment");

    // Answered on the phone: the notification is withdrawn.
    const socket = await openDeviceSocket(url, [DEVICE_PROTOCOL, proof(key)], { host });
    expect(socket.ws, `socket refused: ${socket.status}`).toBeDefined();
    expect((await invoke(socket.ws!, "inbox:answer", { id: "deploy-1", ok: true, data: { env: "staging" } })).ok).toBe(true);
    expect(await answered).toMatchObject({ ok: true, data: { env: "staging" } });
    const close = await until(() => received[1], 5000, "the close message");
    expect(close.path).toBe("/push/phone-1");
    expect(decrypt(close.body)).toEqual({ type: "close", id: "deploy-1", tag: pushTag("deploy-1") });
    socket.ws!.close();

    // Turned off: the subscription is forgotten (reach reads the list per question).
    expect(JSON.parse((await post({ subscription: null })).body)).toEqual({ push: false });
    expect(core.deviceRegistry()!.list()[0].push).toBeUndefined();
  });
});
