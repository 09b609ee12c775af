// The companion as an attacker meets it: the real core and listener (page, /ws, /mcp,
// /v1/requests), hit with what once killed the process or flooded the person, then asked for
// ordinary work. Nothing may reach process level, and ordinary work must still be served.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../src/main/app/core";
import { startCompanionServer, type CompanionServer } from "../../src/main/app/companion-server";
import { browserPlatform } from "../../src/main/app/serve";
import { MAX_PENDING_PER_CALLER } from "../../src/shared/limits";
import { rawExchange, rawRequestBytes, upgradeHeaders } from "../fuzz/http-raw-client";
import { rawRequest } from "./gateway-harness";
import { becomesTrue, until } from "../helpers/poll";

let core: Core;
let server: CompanionServer;
let host: string;
const escaped: unknown[] = [];
const onEscape = (error: unknown) => escaped.push(error);

beforeAll(async () => {
  process.on("unhandledRejection", onEscape);
  process.on("uncaughtException", onEscape);
  const dir = mkdtempSync(join(tmpdir(), "tnc-hostile-"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>hostile</title>");
  core = await createCore({ config: { mcpServers: {} }, platform: browserPlatform });
  server = await startCompanionServer(core, { port: 0, staticDir: dir });
  host = `127.0.0.1:${server.port}`;
});
afterAll(async () => {
  process.off("unhandledRejection", onEscape);
  process.off("uncaughtException", onEscape);
  await core?.close();
});

function postRequest(body: string, agent?: string) {
  return rawRequest(`${server.url}/v1/requests`, {
    headers: { host, "content-type": "application/json", authorization: `Bearer ${core.token()}`, ...(agent ? { "x-agent-name": agent } : {}) },
    body,
  });
}

function openPage(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${host}/ws`, { headers: { authorization: `Bearer ${core.token()}` } });
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

describe("a hostile client, then ordinary work", () => {
  it("survives every attack with a clear refusal and still serves a normal request", async () => {
    // 1. An upgrade with a malformed cookie and no token (a foreign page can send this).
    const badCookie = await rawExchange(server.port, rawRequestBytes("/ws", upgradeHeaders(server.port, { Cookie: `tnc_session_${server.port}=%E0%A4%A`, Origin: `http://${host}` })));
    expect(badCookie.status).toBe(400);
    // 2. An upgrade with a malformed request target.
    const badTarget = await rawExchange(server.port, rawRequestBytes("http://[", upgradeHeaders(server.port)));
    expect(badTarget.status).toBe(400);
    // 3. A plain request with the same defects: 400, not 500.
    expect((await rawExchange(server.port, rawRequestBytes("/", { Host: host, Cookie: `tnc_session_${server.port}=%E0%A4%A` }))).status).toBe(400);
    // 4. A body nested 10k levels deep.
    const deep = await postRequest(`{"id":"deep","kind":"input","prompt":"?","data":${"[".repeat(10_000)}${"]".repeat(10_000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body).toMatch(/nested more than 64 levels/);

    // 5. 500 questions, each under a new X-Agent-Name.
    const refused: string[] = [];
    const off = core.internals.inbox.on((e) => {
      if (e.type === "refused") refused.push(e.request.id);
    });
    const flood = Array.from({ length: 500 }, (_, i) => postRequest(JSON.stringify({ id: `flood-${i}`, kind: "input", prompt: `flood ${i}` }), `bot-${i}`));
    await becomesTrue(() => core.internals.inbox.list().length + refused.length >= 500, 20_000);
    off();
    expect(core.internals.inbox.list().length).toBeLessThanOrEqual(MAX_PENDING_PER_CALLER);
    expect(core.internals.inbox.list()).toHaveLength(MAX_PENDING_PER_CALLER);
    expect(refused).toHaveLength(500 - MAX_PENDING_PER_CALLER);

    // 6. Ordinary work: a page connects and lists the questions, answers one, and a new agent
    //    question gets through once there is room.
    const page = await openPage();
    const listed = await new Promise<{ envelope: { ok: boolean; value: unknown[] } }>((resolve) => {
      page.once("message", (data) => resolve(JSON.parse(String(data))));
      page.send(JSON.stringify({ t: "invoke", id: 1, channel: "inbox:list" }));
    });
    expect(listed.envelope.ok).toBe(true);
    expect(listed.envelope.value).toHaveLength(MAX_PENDING_PER_CALLER);
    page.close();
    for (const entry of core.internals.inbox.list()) core.internals.inbox.answer(entry.request.id, { ok: false, reason: "declined" });
    const replies = await Promise.all(flood);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(500 - MAX_PENDING_PER_CALLER);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(MAX_PENDING_PER_CALLER);
    expect(replies.every((r) => r.status === 200 || r.status === 429)).toBe(true);

    const normal = postRequest(JSON.stringify({ id: "normal-1", kind: "input", prompt: "A normal question" }), "calm-agent");
    await until(() => core.internals.inbox.get("normal-1"), 60_000, "the calm agent's question");
    core.internals.inbox.answer("normal-1", { ok: true });
    const answered = await normal;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toEqual({ id: "normal-1", ok: true });
    expect(escaped).toEqual([]);
  });
});
