// Web Push as a push service receives it: the companion's request arrives at a push service of
// the test's own (a local HTTP endpoint), its payload is decrypted with an independent RFC 8291
// implementation (http_ece) and a subscription key pair made here with node:crypto, and its VAPID
// header's JWT is verified with the VAPID public key (RFC 8292). The VAPID pair is kept in the
// real keychain when there is one (npm test's gnome-keyring), so a second start uses the same key.
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import ece from "http_ece";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Inbox } from "../../src/main/inbox";
import { createReach, type Reach } from "../../src/main/reach/reach";
import { pushTag } from "../../src/main/reach/push";
import { VAPID_SECRET } from "../../src/main/reach/secret-names";
import type { PushTarget } from "../../src/main/reach/types";
import { openSecretStore, registeringStore, SecretScrubber, type SecretStore } from "../../src/main/secrets";
import { createEgress } from "../../src/main/app/egress";
import { FakeClock } from "../helpers/fake-clock";
import { until } from "../helpers/poll";

interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

const received: Received[] = [];
let status = 201;
let service: Server;
let origin: string;
let secrets: SecretStore;
const SERVICE = `toolnexus-companion-test-reach-${process.pid}-${Date.now()}`;
const SECRET = "sk-live-pushed-never-0123456789";

beforeAll(async () => {
  service = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  // The keychain when a Secret Service answers (npm test), else the app's own fallback.
  secrets = await openSecretStore({ service: SERVICE, probeTimeoutMs: 3000 });
  // npm test runs a keyring: the pair must then really be kept there.
  if (process.env.DBUS_SESSION_BUS_ADDRESS) expect(secrets.available, secrets.detail).toBe(true);
});

afterAll(async () => {
  await secrets.delete(VAPID_SECRET).catch(() => false);
  await new Promise<void>((resolve) => service.close(() => resolve()));
});

/** A browser's side of a subscription: its P-256 key pair and auth secret (RFC 8291 section 3). */
function subscriber(name: string): { target: PushTarget; ecdh: ECDH; auth: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16).toString("base64url");
  return { ecdh, auth, target: { id: name, name, subscription: { endpoint: `${origin}/push/${name}`, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth } } } };
}

function decrypt(body: Buffer, who: { ecdh: ECDH; auth: string }): Record<string, unknown> {
  return JSON.parse(ece.decrypt(body, { version: "aes128gcm", privateKey: who.ecdh, authSecret: who.auth }).toString("utf8")) as Record<string, unknown>;
}

/** The VAPID header's JWT, verified (ES256) with the key the header names; its claims. */
function vapid(headers: IncomingMessage["headers"]): { claims: Record<string, unknown>; k: string } {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(String(headers.authorization));
  expect(match, String(headers.authorization)).not.toBeNull();
  const [, jwt, k] = match!;
  const [head, payload, signature] = jwt.split(".");
  expect(JSON.parse(Buffer.from(head, "base64url").toString())).toEqual({ typ: "JWT", alg: "ES256" });
  const point = Buffer.from(k, "base64url");
  expect(point).toHaveLength(65);
  const key = createPublicKey({ key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") }, format: "jwk" });
  expect(verify("sha256", Buffer.from(`${head}.${payload}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"))).toBe(true);
  return { claims: JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>, k };
}

function start(targets: PushTarget[], forgotten: string[] = []) {
  const clock = new FakeClock();
  const scrubber = new SecretScrubber();
  scrubber.register(SECRET);
  const inbox = new Inbox({ now: clock.now });
  const log: string[] = [];
  const reach: Reach = createReach({
    inbox,
    secrets: registeringStore(secrets, scrubber),
    scrub: createEgress(scrubber).away,
    targets: { list: () => targets, forget: (id) => forgotten.push(id) },
    linkBase: () => "https://companion.tailnet.example:7316",
    clock,
    log: (l) => log.push(l),
  });
  return { clock, inbox, reach, log, scrubber };
}

describe("Web Push to paired devices", () => {
  it("sends an encrypted, VAPID-signed notification at 2 minutes and closes it once answered", async () => {
    received.length = 0;
    const phone = subscriber("phone");
    const laptop = { id: "laptop", name: "Laptop" };
    const { clock, inbox, reach } = start([phone.target, laptop]);
    const answer = inbox.waitFor({ id: "q-42", kind: "input", prompt: `Which branch? (token ${SECRET})`, data: { schema: { type: "object", properties: { branch: { type: "string", default: "main-secret-default" } } } } }, { source: { server: "github", agent: "claude-code" } });
    clock.advanceMinutes(1.9);
    expect(received).toHaveLength(0);
    clock.advanceMinutes(0.1);
    const [push] = await until(() => received.length >= 1 && received, 5000, "the push request");
    expect(push.path).toBe("/push/phone");
    expect(push.headers["content-encoding"]).toBe("aes128gcm");
    expect(push.headers.ttl).toBe("3600");
    expect(push.headers.urgency).toBe("high");
    expect(push.headers.topic).toBe(pushTag("q-42"));
    const { claims, k } = vapid(push.headers);
    expect(k).toBe(await reach.vapidPublicKey());
    expect(claims.aud).toBe(origin);
    expect(claims.sub).toBe("https://companion.tailnet.example:7316");
    expect(Number(claims.exp) * 1000).toBeGreaterThan(Date.now());
    expect(Number(claims.exp) * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    const message = decrypt(push.body, phone);
    expect(message).toEqual({
      type: "question",
      id: "q-42",
      tag: pushTag("q-42"),
      title: "claude-code via github asks",
      body: "Which branch? (token [redacted])",
      url: "https://companion.tailnet.example:7316/#/q/q-42",
    });
    expect(push.body.toString("latin1")).not.toContain("Which branch");

    inbox.answer("q-42", { ok: true, data: { branch: "dev" } });
    await answer;
    const close = await until(() => received[1], 5000, "the close push");
    expect(close.path).toBe("/push/phone");
    expect(close.headers.topic).toBe(pushTag("q-42"));
    expect(decrypt(close.body, phone)).toEqual({ type: "close", id: "q-42", tag: pushTag("q-42") });
    // Nothing more is sent for it (the channels' step was cancelled).
    clock.advanceMinutes(30);
    expect(received).toHaveLength(2);
    reach.close();
  });

  it("says only 'A question is waiting' when the person chose so, and forgets a subscription the service says is gone", async () => {
    received.length = 0;
    const phone = subscriber("phone2");
    const forgotten: string[] = [];
    const { clock, inbox, reach, log } = start([phone.target], forgotten);
    reach.setSettings({ ...reach.settings(), detail: "none" });
    status = 410;
    void inbox.waitFor({ id: "q-7", kind: "approval", prompt: "Allow claude-code to run: rm -rf build?" }, { source: { agent: "claude-code" } });
    clock.advanceMinutes(1);
    const [push] = await until(() => received.length >= 1 && received, 5000, "the push request");
    status = 201;
    expect(decrypt(push.body, phone)).toMatchObject({ type: "question", title: "A question is waiting", body: "Open the companion to answer it." });
    await until(() => forgotten.length > 0, 5000, "the subscription forgotten");
    expect(forgotten).toEqual(["phone2"]);
    expect(log.join("\n")).toContain('push to "phone2" failed: 127.0.0.1');
    inbox.close();
    reach.close();
  });

  it("keeps the VAPID key pair: a second start signs with the same public key", async () => {
    const first = start([]);
    const second = start([]);
    const key = await first.reach.vapidPublicKey();
    expect(await second.reach.vapidPublicKey()).toBe(key);
    expect(await secrets.get(VAPID_SECRET)).toContain(key);
    first.reach.close();
    second.reach.close();
  });
});
