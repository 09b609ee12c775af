// Notifications on a paired device, in Chromium against the real core and device listener (on
// 127.0.0.2, which the page counts as another device: not the computer's own loopback name). The
// page asks the browser's permission only from the press of "Notify me on this device", subscribes
// with the companion's VAPID key and hands the subscription over; refused, it says so and
// subscribes nothing. Chromium offline cannot reach a real push service (its subscribe() talks to
// the browser vendor's), so PushManager's subscribe/getSubscription are stood in for in the page:
// everything else — the permission, the page's code, the listener, the stored subscription, the
// service worker sw.js loading push.js and showing a pushed question (DevTools' delivery, the
// path a decrypted push takes) — is real. History's Kind filter lists tasks in a task's words.
import { X509Certificate, createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevicesState } from "../../src/shared/devices";
import type { TaskRecord } from "../../src/shared/tasks";
import { httpsCall } from "../helpers/device-client";
import { until } from "../helpers/poll";
import { CHROMIUM_ARGS, axeViolations, horizontalOverflow, rendererDir, SHOTS, startApp, type App } from "./harness";

const UI_TIMEOUT = 20_000;
const ADDRESS = "127.0.0.2";
const dir = mkdtempSync(join(tmpdir(), "tnc-device-push-e2e-"));
let app: App;
let browser: Browser;
let url: string;
const contexts: BrowserContext[] = [];

const call = <T>(channel: string, arg?: unknown): Promise<T> => (app.core.handlers as any)[channel](arg) as Promise<T>;

beforeAll(async () => {
  app = await startApp({ mcpServers: {} }, { core: { historyPath: join(dir, "history.db"), devices: { dir: join(dir, "devices"), staticDir: rendererDir(), addresses: () => [{ address: ADDRESS, interface: "lo-test", family: "IPv4", tailnet: false }] } } });
  const state = await call<DevicesState>("devices:configure", { enabled: true, address: ADDRESS, port: 0, certificate: { kind: "own" } });
  expect(state.problem).toBeUndefined();
  url = state.url!;
  // Chromium trusts the listener's certificate by its public key, as the phone in device-pairing does.
  const pem = readFileSync(join(dir, "devices", "device-cert.pem"), "utf8");
  const spki = createHash("sha256").update(new X509Certificate(pem).publicKey.export({ type: "spki", format: "der" })).digest("base64");
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${spki}`] });
}, 240_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await app?.close();
});

async function pair(name: string): Promise<{ id: string; key: string }> {
  const offer = await call<DevicesState>("devices:startPairing");
  const code = offer.offer!.link.split("#/pair/")[1];
  const host = new URL(url).host;
  const asked = await httpsCall(`${url}/v1/pair`, { method: "POST", headers: { host, "content-type": "application/json" }, body: JSON.stringify({ code, name }) });
  expect(asked.status).toBe(201);
  const device = JSON.parse(asked.body) as { id: string; key: string };
  await call("devices:confirm", { id: device.id, ok: true });
  return device;
}

interface Calls {
  permission: number;
  activeAtPermission: boolean[];
  subscribe: number;
  keys: string[];
}

/** A phone's page, paired as `key`, with PushManager's two calls to the push service stood in for. */
async function phonePage(key: string, grant: boolean): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  context.setDefaultTimeout(UI_TIMEOUT);
  contexts.push(context);
  if (grant) await context.grantPermissions(["notifications"], { origin: url });
  const p256dh = randomBytes(65).toString("base64url");
  await context.addInitScript(
    ({ key, p256dh }) => {
      localStorage.setItem("tnc-device-key", key);
      const calls = { permission: 0, activeAtPermission: [] as boolean[], subscribe: 0, keys: [] as string[] };
      (window as unknown as { pushCalls: typeof calls }).pushCalls = calls;
      const ask = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = () => {
        calls.permission++;
        calls.activeAtPermission.push(navigator.userActivation.isActive);
        return ask();
      };
      let held: PushSubscription | null = null;
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        calls.subscribe++;
        const serverKey = new Uint8Array(options!.applicationServerKey as ArrayBuffer);
        calls.keys.push(btoa(String.fromCharCode(...serverKey)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""));
        const endpoint = "https://push.example.net/send/phone-1";
        held = {
          endpoint,
          expirationTime: null,
          options: { applicationServerKey: serverKey.buffer, userVisibleOnly: true },
          toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth: "c2VjcmV0LWF1dGgtMTY" } }),
          unsubscribe: async () => ((held = null), true),
          getKey: () => null,
        } as unknown as PushSubscription;
        return held;
      };
      PushManager.prototype.getSubscription = async () => held;
    },
    { key, p256dh },
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${url}/`);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
  return { page, context, errors };
}

const calls = (page: Page) => page.evaluate(() => (window as unknown as { pushCalls: Calls }).pushCalls);

async function shoot(page: Page, name: string): Promise<void> {
  for (const size of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SHOTS, `${name}-${size.width}x${size.height}-${scheme}.png`) });
      const message = `${name} at ${size.width} px, ${scheme}`;
      expect(await horizontalOverflow(page), message).toBeLessThanOrEqual(0);
      expect(await axeViolations(page), message).toEqual([]);
    }
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "light" });
}

describe("notifications on a paired device's page", () => {
  it("subscribes only from the button, hands the subscription over, and its service worker shows a pushed question", async () => {
    const device = await pair("Phone");
    const { page, context, errors } = await phonePage(device.key, true);
    const region = page.getByRole("region", { name: "Notifications on this device" });
    const button = region.getByRole("button", { name: "Notify me on this device" });
    await button.waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready);
    // Loading the page asked nothing and subscribed nothing.
    expect(await calls(page)).toMatchObject({ permission: 0, subscribe: 0 });
    await shoot(page, "device-push-off");

    await button.click();
    await region.getByText("This device is notified when a question waits for you.").waitFor();
    const made = await calls(page);
    expect(made).toEqual({ permission: 1, activeAtPermission: [true], subscribe: 1, keys: [await app.core.reach.vapidPublicKey()] });
    const stored = app.core.deviceRegistry()!.list().find((d) => d.id === device.id)!;
    expect(stored.push?.endpoint).toBe("https://push.example.net/send/phone-1");
    await shoot(page, "device-push-on");

    // sw.js loads push.js: a push delivered to this page's worker shows the question.
    const cdp = await context.newCDPSession(page);
    const workerErrors: string[] = [];
    cdp.on("ServiceWorker.workerErrorReported", (event: { errorMessage: { errorMessage: string } }) => workerErrors.push(event.errorMessage.errorMessage));
    const registration = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerVersionUpdated", (event: { versions: { registrationId: string; status: string; scriptURL: string }[] }) => {
        const active = event.versions.find((v) => v.status === "activated" && v.scriptURL.endsWith("/sw.js"));
        if (active) resolve(active.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    const registrationId = await registration;
    const origin = new URL(url).origin;
    await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify({ type: "question", id: "q-9", tag: "tag-q9", title: "claude-code asks", body: "Deploy to staging?", url: `${url}/#/q/q-9` }) });
    const shown = () => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, tag: n.tag, data: n.data as unknown })));
    expect(await until(async () => ((await shown()).length === 1 ? shown() : undefined), 10_000, "the pushed question shown")).toEqual([{ title: "claude-code asks", tag: "tag-q9", data: { id: "q-9", url: `${url}/#/q/q-9` } }]);
    await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify({ type: "close", id: "q-9", tag: "tag-q9" }) });
    await until(async () => (await shown()).length === 0, 10_000, "the notification withdrawn");
    expect(workerErrors).toEqual([]);

    // Stopped: the companion forgets the subscription.
    await region.getByRole("button", { name: "Stop notifications" }).click();
    await button.waitFor();
    expect(app.core.deviceRegistry()!.list().find((d) => d.id === device.id)!.push).toBeUndefined();
    expect(errors).toEqual([]);
  }, 120_000);

  it("says so when notifications are refused, and subscribes nothing", async () => {
    const device = await pair("Tablet");
    const { page, errors } = await phonePage(device.key, false);
    const region = page.getByRole("region", { name: "Notifications on this device" });
    await region.getByRole("button", { name: "Notify me on this device" }).click();
    // Chromium without a grant answers "denied" (a browser may also leave it at "default": not allowed).
    await region.getByText(/Notifications are blocked for this page|Notifications were not allowed/).first().waitFor();
    expect(await region.getByText("Notifications are blocked for this page", { exact: false }).count()).toBeLessThanOrEqual(1);
    expect(await calls(page)).toMatchObject({ permission: 1, subscribe: 0 });
    expect(app.core.deviceRegistry()!.list().find((d) => d.id === device.id)!.push).toBeUndefined();
    await shoot(page, "device-push-refused");
    expect(errors).toEqual([]);
  }, 60_000);

  it("filters History by Task and words a task's row as a task's", async () => {
    const ledger = app.core.internals.tasks;
    const task = (over: Partial<TaskRecord> & { id: string }): TaskRecord => ({ server: "reports", tool: "export_report", taskId: `srv-${over.id}`, generation: "2026-07-28", state: "working", createdAt: Date.now() - 95_000, ...over });
    ledger.started(task({ id: "tsk-done" }));
    ledger.updated("tsk-done", { state: "completed", outcome: "Wrote report.pdf" });
    ledger.started(task({ id: "tsk-fail", tool: "resize_images" }));
    ledger.updated("tsk-fail", { state: "failed", outcome: "Out of disk space" });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(UI_TIMEOUT);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(app.pageUrl);
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "History", exact: true }).click();
    const kind = page.getByRole("combobox", { name: "Kind" });
    expect(await kind.locator("option").allInnerTexts()).toContain("Task");
    await kind.selectOption({ label: "Task" });
    const outcomes = await page.getByRole("combobox", { name: "Outcome" }).locator("option").allInnerTexts();
    expect(outcomes).toEqual(expect.arrayContaining(["Completed", "Failed", "Cancelled", "Gone"]));
    const records = page.getByRole("list", { name: "History records" });
    const done = records.getByRole("article", { name: "Ran export_report as a background task" });
    await done.getByText("Completed", { exact: true }).waitFor();
    await done.getByText(/^ran for /).waitFor();
    expect(await done.getByText(/answered in/).count()).toBe(0);
    await records.getByRole("article", { name: "Ran resize_images as a background task" }).getByText("Failed", { exact: true }).waitFor();
    await page.screenshot({ path: join(SHOTS, "history-tasks-1280x800-light.png") });
    expect(await axeViolations(page)).toEqual([]);
  }, 60_000);
});
