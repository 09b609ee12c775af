// ntfy's Allow and Deny buttons through the whole core: an approval not answered at the desk goes
// to ntfy (a local endpoint) with actions that POST to the real device listener (HTTPS, its own
// certificate), and tapping one answers the approval once. reach/ tests the route on its own
// (reach-channels.test.ts); this proves the core mounts it where the device listener serves it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../src/main/app/core";
import { browserPlatform } from "../../src/main/app/serve";
import type { DevicesState } from "../../src/shared/devices";
import type { ReachSaveArg } from "../../src/shared/reach";
import { httpsCall } from "../helpers/device-client";
import { FakeClock } from "../helpers/fake-clock";
import { until } from "../helpers/poll";

interface Hit {
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

const hits: Hit[] = [];
let services: Server;
let core: Core;
let clock: FakeClock;
let url: string;
let host: string;

const loopbackAddress = [{ address: "127.0.0.1", interface: "lo-test", family: "IPv4" as const, tailnet: false }];

async function call<T>(channel: string, arg?: unknown): Promise<T> {
  return (await (core.handlers as any)[channel](arg)) as T;
}

beforeAll(async () => {
  services = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      hits.push({ path: req.url ?? "", headers: req.headers });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => services.listen(0, "127.0.0.1", () => resolve()));
  const servicesUrl = `http://127.0.0.1:${(services.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), "tnc-ntfy-actions-"));
  const staticDir = join(dir, "page");
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, "index.html"), "<!doctype html><title>device shell</title>");
  clock = new FakeClock(Date.now());
  core = await createCore({
    config: { mcpServers: {} },
    platform: browserPlatform,
    historyPath: join(dir, "history.db"),
    devices: { dir: join(dir, "devices"), staticDir, addresses: () => loopbackAddress },
    reach: { path: join(dir, "reach.json"), clock },
  });
  const state = await call<DevicesState>("devices:configure", { enabled: true, address: "127.0.0.1", port: 0, certificate: { kind: "own" } });
  expect(state.problem).toBeUndefined();
  url = state.url!;
  host = new URL(url).host;
  const save: ReachSaveArg = {
    detail: "full",
    escalation: { devicesAfter: 2, approvalDevicesAfter: 1, channelsAfter: 3 },
    holdAtDesk: true,
    ntfy: { enabled: true, url: `${servicesUrl}/ntfy/away` },
    slack: { enabled: false },
    discord: { enabled: false },
    matrix: { enabled: false, homeserver: "", roomId: "" },
    email: { enabled: false, host: "", port: 587, secure: false, user: "", from: "", to: "" },
  };
  await call("reach:save", save);
});

afterAll(async () => {
  await core?.close();
  await new Promise<void>((resolve) => services.close(() => resolve()));
});

describe("ntfy's Allow and Deny through the device listener", () => {
  it("an approval left a minute goes to ntfy; its Allow, posted to the device listener, answers it once", async () => {
    const answer = core.internals.inbox.waitFor({ id: "hook-ntfy-1", kind: "approval", prompt: "Allow claude-code to run: make deploy?" }, { source: { agent: "claude-code" } });
    // No paired device allows notifications: the channels go when the devices would have.
    clock.advance(2 * 60_000);
    const ntfy = await until(() => hits.find((h) => h.path === "/ntfy/away"), 5000, "the ntfy message");
    const actions = String(ntfy.headers.actions).split("; ").map((a) => a.split(", "));
    const allow = actions.find((a) => a[1] === "Allow")!;
    const deny = actions.find((a) => a[1] === "Deny")!;
    expect(allow[2].startsWith(`${url}/v1/reach/act/`)).toBe(true);
    expect(String(ntfy.headers.click)).toBe(`${url}/#/q/hook-ntfy-1`);

    const tapped = await httpsCall(allow[2], { method: "POST", headers: { host } });
    expect(tapped.status).toBe(200);
    expect(await answer).toEqual({ id: "hook-ntfy-1", ok: true });
    expect((await httpsCall(allow[2], { method: "POST", headers: { host } })).status).toBe(410);
    expect((await httpsCall(deny[2], { method: "POST", headers: { host } })).status).toBe(410);
    // The listener's own checks still hold on a public route: a foreign Host is refused.
    expect((await httpsCall(allow[2], { method: "POST", headers: { host: "evil.example:443" } })).status).toBe(403);
  });
});
