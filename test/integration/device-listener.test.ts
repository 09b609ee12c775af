// The device listener with the real core: pairing, what a paired device may and may not do, and
// every refusal — a wrong, revoked or replayed key, an expired or reused code, a foreign Host or
// Origin, the gateway token and the page's cookie on the device listener, a device key on the
// loopback one — each 401/403 saying nothing more than "Refused.".
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../src/main/app/core";
import { startCompanionServer, type CompanionServer } from "../../src/main/app/companion-server";
import { browserPlatform } from "../../src/main/app/serve";
import { inboxWaitFor } from "../../src/main/inbox";
import type { DevicesState } from "../../src/shared/devices";
import { PAIRING_CODE_MS } from "../../src/shared/devices";
import { httpsCall, invoke, openDeviceSocket, proof } from "../helpers/device-client";
import { becomesTrue, until } from "../helpers/poll";

let core: Core;
let loopback: CompanionServer;
let devicesDir: string;
let now = Date.now();
let url: string;
let host: string;

const loopbackAddress = [{ address: "127.0.0.1", interface: "lo-test", family: "IPv4" as const, tailnet: false }];

async function call<T>(channel: string, arg?: unknown): Promise<T> {
  const envelope = await (core.handlers as any)[channel](arg);
  return envelope as T;
}

async function pairDevice(name: string): Promise<{ id: string; key: string }> {
  const state = await call<DevicesState>("devices:startPairing");
  const code = state.offer!.link.split("#/pair/")[1];
  const asked = await httpsCall(`${url}/v1/pair`, { method: "POST", headers: { host, "content-type": "application/json" }, body: JSON.stringify({ code, name }) });
  expect(asked.status).toBe(201);
  const device = JSON.parse(asked.body) as { id: string; key: string };
  await call("devices:confirm", { id: device.id, ok: true });
  return device;
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "tnc-devices-"));
  const staticDir = join(dir, "page");
  devicesDir = join(dir, "devices");
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, "index.html"), "<!doctype html><title>device shell</title>");
  core = await createCore({
    config: { mcpServers: {} },
    platform: browserPlatform,
    historyPath: join(dir, "history.db"),
    devices: { dir: devicesDir, staticDir, addresses: () => loopbackAddress, now: () => now, listener: { attemptsPerMinute: 10 } },
  });
  loopback = await startCompanionServer(core, { port: 0, staticDir });
  const state = await call<DevicesState>("devices:configure", { enabled: true, address: "127.0.0.1", port: 0, certificate: { kind: "own" } });
  expect(state.problem).toBeUndefined();
  url = state.url!;
  host = new URL(url).host;
});
afterAll(async () => {
  await core?.close();
});

describe("the device listener", () => {
  it("is off by default, serves HTTPS with the certificate whose fingerprint Settings shows, and keeps its key 0600", async () => {
    const state = await call<DevicesState>("devices:get");
    expect(state.setting.enabled).toBe(true);
    const shell = await httpsCall(`${url}/`, { headers: { host } });
    expect(shell.status).toBe(200);
    expect(shell.body).toContain("device shell");
    expect(shell.fingerprint).toBe(state.fingerprint);
    expect(statSync(join(devicesDir, "device-key.pem")).mode & 0o777).toBe(0o600);
  });

  it("refuses a listener on every address at once, or on one this machine does not have", async () => {
    const port = Number(new URL(url).port);
    const wildcard = await call<DevicesState>("devices:configure", { enabled: true, address: "0.0.0.0", port, certificate: { kind: "own" } });
    expect(wildcard.problem).toMatch(/never listens on every address/);
    expect(wildcard.url).toBeUndefined();
    const elsewhere = await call<DevicesState>("devices:configure", { enabled: true, address: "10.99.99.99", port, certificate: { kind: "own" } });
    expect(elsewhere.problem).toMatch(/not an address of this computer/);
    const back = await call<DevicesState>("devices:configure", { enabled: true, address: "127.0.0.1", port, certificate: { kind: "own" } });
    expect(back.url).toBe(url);
    // The same certificate: made once and kept.
    expect(back.fingerprint).toBe((await httpsCall(`${url}/`, { headers: { host } })).fingerprint);
  });

  it("pairs a device once the person confirms, and serves it only the allow-listed channels", async () => {
    const state = await call<DevicesState>("devices:startPairing");
    expect(state.offer!.qr).toMatch(/^data:image\/png;base64,/);
    const code = state.offer!.link.split("#/pair/")[1];
    const asked = await httpsCall(`${url}/v1/pair`, { method: "POST", headers: { host, "content-type": "application/json" }, body: JSON.stringify({ code, name: "Phone" }) });
    expect(asked.status).toBe(201);
    const device = JSON.parse(asked.body) as { id: string; key: string };
    // Before the person's yes: "asking", and no WebSocket.
    expect(JSON.parse((await httpsCall(`${url}/v1/pair/state`, { headers: { host, "x-device-proof": proof(device.key) } })).body)).toEqual({ state: "asking" });
    expect((await openDeviceSocket(url, ["tnc-device-v1", proof(device.key)], { host })).status).toBe(401);
    const asking = await call<DevicesState>("devices:get");
    expect(asking.asking.map((a) => a.name)).toEqual(["Phone"]);
    const confirmed = await call<DevicesState>("devices:confirm", { id: device.id, ok: true });
    expect(confirmed.devices.map((d) => d.name)).toEqual(["Phone"]);
    expect(JSON.parse((await httpsCall(`${url}/v1/pair/state`, { headers: { host, "x-device-proof": proof(device.key) } })).body).state).toBe("paired");

    const { ws } = await openDeviceSocket(url, ["tnc-device-v1", proof(device.key)], { host });
    expect(ws).toBeDefined();
    expect((await invoke(ws!, "inbox:list")).ok).toBe(true);
    expect((await invoke(ws!, "history:list", {})).ok).toBe(true);
    for (const channel of ["settings:get", "gateway:rotateToken", "secrets:set", "servers:list", "rules:add", "history:clear", "devices:get", "devices:revoke", "tools:run", "agents:list"]) {
      const refused = await invoke(ws!, channel, {});
      expect(refused, channel).toMatchObject({ ok: false, error: { code: "forbidden" } });
    }
    expect((await invoke(ws!, "history:settings", { enabled: false })).error?.code).toBe("forbidden");

    // A question answered on the device: History says which device answered.
    const inbox = core.internals.inbox;
    const asked2 = inboxWaitFor(inbox)({ id: "form-1", kind: "input", prompt: "Name?", data: { schema: { type: "object", properties: { name: { type: "string" } } } } }, { server: "s", signal: new AbortController().signal });
    expect(await becomesTrue(() => inbox.list().length === 1, 5000)).toBe(true);
    const answered = await invoke(ws!, "inbox:answer", { id: "form-1", ok: true, data: { name: "Ada" } });
    expect(answered.ok).toBe(true);
    expect((await asked2).data).toEqual({ name: "Ada" });
    const record = await until(async () => {
      const page = await invoke(ws!, "history:list", {});
      const found = page.value.items.find((r: any) => r.requestId === "form-1");
      return found?.outcome === "accepted" ? found : undefined;
    }, 5000, "the answer in History");
    expect(record.device).toBe("Phone");
    expect(record.by).toBe("person");

    // Revoked: its open socket closes at once, and its key is refused from then on.
    const closed = new Promise<number>((resolve) => ws!.once("close", (code) => resolve(code)));
    await call("devices:revoke", { id: device.id });
    expect(await closed).toBeGreaterThan(0);
    expect((await openDeviceSocket(url, ["tnc-device-v1", proof(device.key)], { host })).status).toBe(401);
    const revoked = await httpsCall(`${url}/v1/pair/state`, { headers: { host, "x-device-proof": proof(device.key) } });
    expect(revoked).toMatchObject({ status: 401, body: "Refused." });
  });

  it("refuses a reused or expired pairing code, and a replayed, wrong or stale proof", async () => {
    const state = await call<DevicesState>("devices:startPairing");
    const code = state.offer!.link.split("#/pair/")[1];
    const pair = (c: string) => httpsCall(`${url}/v1/pair`, { method: "POST", headers: { host, "content-type": "application/json" }, body: JSON.stringify({ code: c, name: "Tablet" }) });
    const first = await pair(code);
    expect(first.status).toBe(201);
    expect(await pair(code)).toMatchObject({ status: 403, body: "Refused." });
    const { id, key } = JSON.parse(first.body);
    await call("devices:confirm", { id, ok: true });

    const expiring = await call<DevicesState>("devices:startPairing");
    now += PAIRING_CODE_MS + 1;
    expect(await pair(expiring.offer!.link.split("#/pair/")[1])).toMatchObject({ status: 403, body: "Refused." });

    const once = proof(key, now);
    expect((await httpsCall(`${url}/v1/pair/state`, { headers: { host, "x-device-proof": once } })).status).toBe(200);
    expect(await httpsCall(`${url}/v1/pair/state`, { headers: { host, "x-device-proof": once } })).toMatchObject({ status: 401, body: "Refused." });
    const onceWs = proof(key, now);
    const opened = await openDeviceSocket(url, ["tnc-device-v1", onceWs], { host });
    opened.ws?.close();
    expect((await openDeviceSocket(url, ["tnc-device-v1", onceWs], { host })).status).toBe(401);
    // Two minutes old: refused whatever its nonce.
    expect((await httpsCall(`${url}/v1/pair/state`, { headers: { host, "x-device-proof": proof(key, now - 120_000) } })).status).toBe(401);
    // The right id with another secret.
    const wrong = `${key.slice(0, key.lastIndexOf(".") + 1)}${"A".repeat(43)}`;
    expect(await httpsCall(`${url}/v1/pair/state`, { headers: { host, "x-device-proof": proof(wrong, now) } })).toMatchObject({ status: 401, body: "Refused." });
    await call("devices:revoke", { id });
  });

  it("takes neither the gateway token nor the page's cookie, and answers to its own Host and Origin only", async () => {
    // A fresh minute: refused keys count against the address as pairing attempts do.
    now += 61_000;
    const { id, key } = await pairDevice("Laptop");
    const token = core.token();
    const cookie = `tnc_session_${loopback.port}=whatever`;
    expect((await openDeviceSocket(url, [], { host, authorization: `Bearer ${token}` })).status).toBe(401);
    expect((await openDeviceSocket(url, ["tnc-device-v1", proof(token)], { host })).status).toBe(401);
    expect((await openDeviceSocket(url, [], { host, cookie })).status).toBe(401);
    expect((await httpsCall(`${url}/v1/pair/state`, { headers: { host, authorization: `Bearer ${token}` } })).status).toBe(401);
    // The page's real cookie: get it from the printed link, then try it here.
    const signIn = await fetch(loopback.pageUrl(), { redirect: "manual" });
    const realCookie = signIn.headers.get("set-cookie")!.split(";")[0];
    expect((await openDeviceSocket(url, [], { host, cookie: realCookie })).status).toBe(401);

    expect(await httpsCall(`${url}/`, { headers: { host: "evil.example" } })).toMatchObject({ status: 403, body: "Refused." });
    expect((await openDeviceSocket(url, ["tnc-device-v1", proof(key, now)], { host: `localhost:${new URL(url).port}` })).status).toBe(403);
    expect((await openDeviceSocket(url, ["tnc-device-v1", proof(key, now)], { host, origin: "https://evil.example" })).status).toBe(403);
    expect((await openDeviceSocket(url, ["tnc-device-v1", proof(key, now)], { host, origin: `http://${host}` })).status).toBe(403);
    const ok = await openDeviceSocket(url, ["tnc-device-v1", proof(key, now)], { host, origin: `https://${host}` });
    expect(ok.ws).toBeDefined();
    ok.ws!.close();

    // A device key on the loopback listener: neither the page, its socket nor the gateway take it.
    expect((await fetch(`${loopback.url}/`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    expect((await fetch(`${loopback.url}/mcp`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: "{}" })).status).toBe(401);
    expect((await fetch(`${loopback.url}/v1/pair/state`, { headers: { "x-device-proof": proof(key, now) } })).status).toBe(401);
    const loopbackWs = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${loopback.port}/ws`, ["tnc-device-v1", proof(key, now)]);
      ws.once("open", () => resolve(101));
      ws.once("unexpected-response", (_q: unknown, res: { statusCode: number }) => resolve(res.statusCode));
    });
    expect(loopbackWs).toBe(401);
    await call("devices:revoke", { id });
  });

  it("keeps a paired device's push subscription, and serves the public routes other features mount", async () => {
    now += 61_000;
    const { id, key } = await pairDevice("Watch");
    const registry = core.deviceRegistry()!;
    const subscription = { endpoint: "https://push.example/send/abc", keys: { p256dh: "BPk", auth: "au" } };
    const kept = await httpsCall(`${url}/v1/device/push`, { method: "POST", headers: { host, "content-type": "application/json", "x-device-proof": proof(key, now) }, body: JSON.stringify({ subscription }) });
    expect(kept.status).toBe(200);
    expect(registry.list().find((d) => d.id === id)?.push).toEqual({ ...subscription, expirationTime: null });
    expect((await httpsCall(`${url}/v1/device/push`, { method: "POST", headers: { host, "content-type": "application/json" }, body: JSON.stringify({ subscription }) })).status).toBe(401);
    expect(registry.baseUrl()).toBe(url);
    expect(registry.questionUrl("elc-1")).toBe(`${url}/#/q/elc-1`);

    expect(() => registry.addPublicRoute({ prefix: "/v1/pair/x", handle: () => {} })).toThrow(/not under \/v1\/pair/);
    registry.addPublicRoute({ prefix: "/v1/act", handle: (_req, res) => void res.writeHead(200).end("acted") });
    expect(await httpsCall(`${url}/v1/act/abc`, { method: "POST", headers: { host } })).toMatchObject({ status: 200, body: "acted" });
    // Its Host rule holds for a public route too.
    expect((await httpsCall(`${url}/v1/act/abc`, { method: "POST", headers: { host: "evil.example" } })).status).toBe(403);
    await call("devices:revoke", { id });
  });

  it("takes hostile input on the device listener as a refusal of that request, never the process", async () => {
    now += 61_000;
    const escaped: unknown[] = [];
    const onEscape = (error: unknown) => escaped.push(error);
    process.on("unhandledRejection", onEscape);
    process.on("uncaughtException", onEscape);
    try {
      const { id, key } = await pairDevice("Hostile");
      const post = (body: string) => httpsCall(`${url}/v1/pair`, { method: "POST", headers: { host, "content-type": "application/json" }, body });
      expect((await post("{ not json")).status).toBe(400);
      expect((await post(JSON.stringify({ code: "x".repeat(10_000), name: "big" }))).status).toBe(413);
      expect((await post(`${"[".repeat(5000)}${"]".repeat(5000)}`)).status).toBe(413);
      // Plain HTTP on the TLS port: the connection ends, the listener lives on.
      const plain = await fetch(`http://${host}/`).then(() => "answered", () => "refused");
      expect(plain).toBe("refused");
      // A paired device's socket: bad JSON and a message nested too deep close it; a new one works.
      const first = await openDeviceSocket(url, ["tnc-device-v1", proof(key, now)], { host });
      const closed = new Promise<number>((resolve) => first.ws!.once("close", (code) => resolve(code)));
      first.ws!.send("{ nope");
      expect(await closed).toBe(1007);
      const second = await openDeviceSocket(url, ["tnc-device-v1", proof(key, now)], { host });
      const closed2 = new Promise<number>((resolve) => second.ws!.once("close", (code) => resolve(code)));
      second.ws!.send(`{"t":"invoke","id":1,"channel":"inbox:list","arg":${"[".repeat(100)}${"]".repeat(100)}}`);
      expect(await closed2).toBe(1009);
      const third = await openDeviceSocket(url, ["tnc-device-v1", proof(key, now)], { host });
      expect((await invoke(third.ws!, "inbox:list")).ok).toBe(true);
      third.ws!.close();
      await call("devices:revoke", { id });
      expect(escaped).toEqual([]);
    } finally {
      process.off("unhandledRejection", onEscape);
      process.off("uncaughtException", onEscape);
    }
  });

  it("limits pairing attempts per address", async () => {
    now += 61_000;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await httpsCall(`${url}/v1/pair`, { method: "POST", headers: { host, "content-type": "application/json" }, body: JSON.stringify({ code: "x".repeat(22), name: "Guess" }) });
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 403)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Meanwhile the whole listener refuses that address, the shell too, until the minute is over.
    expect((await httpsCall(`${url}/`, { headers: { host } })).status).toBe(429);
    now += 61_000;
    expect((await httpsCall(`${url}/`, { headers: { host } })).status).toBe(200);
  });
});
