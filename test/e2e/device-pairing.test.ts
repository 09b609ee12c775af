// A phone on another network answers the companion: a network namespace of its own ("the
// phone"), joined to this one by a veth pair, with Chromium running inside it at a phone's size
// and with touch. The computer's page (loopback) turns the device listener on at the host's end
// of the veth and shows the pairing QR; the phone reads the QR from its PNG (jsqr, not from
// memory), pairs, waits for the computer's yes, answers a form question and an approval, reads
// History; revoked, it is refused. Screenshots at 390×844 and 430×932, light and dark, axe-clean.
import { execFileSync } from "node:child_process";
import { X509Certificate, createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inboxWaitFor } from "../../src/main/inbox";
import type { Answer } from "../../src/shared/types";
import { axeViolations, CHROMIUM_ARGS, horizontalOverflow, rendererDir, shootAll, SHOTS, startApp, useBrowser, type App } from "./harness";

const UI_TIMEOUT = 20_000;
const tag = randomBytes(3).toString("hex");
const NS = `tnc-phone-${tag}`;
const HOST_IF = `tnch${tag}`;
const PHONE_IF = `tncp${tag}`;
// A /30 of its own per run, from the octets of the tag: two runs at once do not share addresses.
const subnet = `10.231.${parseInt(tag.slice(0, 2), 16)}.${(parseInt(tag.slice(2, 4), 16) & 0x3f) * 4}`;
const base = subnet.split(".").map(Number);
const HOST_ADDR = `${base[0]}.${base[1]}.${base[2]}.${base[3] + 1}`;
const PHONE_ADDR = `${base[0]}.${base[1]}.${base[2]}.${base[3] + 2}`;
const devicesDir = mkdtempSync(join(tmpdir(), "tnc-devices-e2e-"));

const ip = (...args: string[]) => execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });

function makeNetwork(): void {
  ip("netns", "add", NS);
  ip("link", "add", HOST_IF, "type", "veth", "peer", "name", PHONE_IF);
  ip("link", "set", PHONE_IF, "netns", NS);
  ip("addr", "add", `${HOST_ADDR}/30`, "dev", HOST_IF);
  ip("link", "set", HOST_IF, "up");
  ip("netns", "exec", NS, "ip", "addr", "add", `${PHONE_ADDR}/30`, "dev", PHONE_IF);
  ip("netns", "exec", NS, "ip", "link", "set", PHONE_IF, "up");
  ip("netns", "exec", NS, "ip", "link", "set", "lo", "up");
}

function dropNetwork(): void {
  for (const args of [["link", "del", HOST_IF], ["netns", "del", NS]]) {
    try {
      ip(...args);
    } catch {
      // Already gone (the namespace takes its end of the veth with it).
    }
  }
}

const e2e = useBrowser({
  uiTimeout: UI_TIMEOUT,
  closeContexts: "after-all",
  app: async () => {
    makeNetwork();
    return startApp({ mcpServers: {} }, { core: { historyPath: join(devicesDir, "history.db"), devices: { dir: devicesDir, staticDir: rendererDir() } } });
  },
  afterAll: dropNetwork,
});

let phoneBrowser: Browser | undefined;
afterAll(async () => {
  await phoneBrowser?.close();
});

/** Chromium inside the phone's namespace: a wrapper that enters it, then execs Chromium with Playwright's pipe. */
async function launchPhone(certificatePem: string): Promise<Browser> {
  const dir = mkdtempSync(join(tmpdir(), "tnc-phone-"));
  const wrapper = join(dir, "chromium-in-phone");
  writeFileSync(wrapper, `#!/bin/sh\nexec ip netns exec ${NS} /usr/bin/chromium "$@"\n`);
  chmodSync(wrapper, 0o755);
  // The phone trusts the companion's certificate by its public key, as a person does once they
  // compared the fingerprint: no blanket "ignore certificate errors".
  const spki = createHash("sha256").update(new X509Certificate(certificatePem).publicKey.export({ type: "spki", format: "der" })).digest("base64");
  return chromium.launch({ executablePath: wrapper, args: [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${spki}`] });
}

type Phone = { width: number; height: number };
const PHONES: Phone[] = [
  { width: 390, height: 844 },
  { width: 430, height: 932 },
];

/** Screenshots at both phone sizes, light and dark; each axe-clean and without sideways scroll. */
async function shootPhone(page: Page, name: string): Promise<void> {
  for (const size of PHONES) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SHOTS, `device-${name}-${size.width}x${size.height}-${scheme}.png`) });
      const message = `${name} at ${size.width} px, ${scheme}`;
      expect(await horizontalOverflow(page), message).toBeLessThanOrEqual(0);
      expect(await axeViolations(page), message).toEqual([]);
    }
  }
  await page.setViewportSize(PHONES[0]);
  await page.emulateMedia({ colorScheme: "light" });
}

/** Every visible button and field is at least 44 px tall: a finger, not a mouse pointer. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("button, select, input:not([type=checkbox]):not([type=radio]), summary")]
      .filter((el) => el.offsetParent !== null)
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.height < 44 || box.width < 44)
      .map(({ el, box }) => `${el.tagName} "${(el.textContent ?? "").trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`),
  );
}

/** How far above the bottom of the screen a control ends. */
async function bottomGap(control: ReturnType<Page["getByRole"]>): Promise<number> {
  const box = await control.boundingBox();
  const height = await control.page().evaluate(() => window.innerHeight);
  return height - (box!.y + box!.height);
}

/** The link in the QR code Settings shows, read from the PNG itself. */
async function readQr(desktop: Page): Promise<string> {
  const src = await desktop.getByRole("img", { name: "Pairing QR code" }).getAttribute("src");
  const png = PNG.sync.read(Buffer.from(src!.replace(/^data:image\/png;base64,/, ""), "base64"));
  const code = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  expect(code, "the QR code decodes").not.toBeNull();
  return code!.data;
}

function ask(app: App, request: Parameters<ReturnType<typeof inboxWaitFor>>[0]): Promise<Answer> {
  return inboxWaitFor(app.core.internals.inbox)(request, { server: "deploy-bot", agent: "claude-code", signal: new AbortController().signal });
}

describe("a paired phone across a network boundary", () => {
  let desktop: Page;
  let phoneContext: BrowserContext;
  let phone: Page;

  beforeAll(async () => {
    desktop = await e2e.open({ viewport: { width: 1280, height: 800 } });
  });

  it("turns the device listener on from Settings and shows a QR the phone can read", async () => {
    await desktop.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Settings" }).click();
    const section = desktop.getByRole("region", { name: "Answer from another device" });
    await expect(section.getByRole("checkbox", { name: "Answer from another device" }).isChecked()).resolves.toBe(false);
    await section.getByRole("checkbox", { name: "Answer from another device" }).check();
    await section.getByRole("combobox", { name: "Address" }).selectOption(HOST_ADDR);
    await section.getByRole("spinbutton", { name: "Port" }).fill("0");
    await section.getByRole("button", { name: "Apply" }).click();
    await section.getByText(`https://${HOST_ADDR}:`).waitFor();
    await section.getByRole("button", { name: "Pair a device" }).click();
    const link = await readQr(desktop);
    expect(link).toMatch(new RegExp(`^https://${HOST_ADDR.replace(/\./g, "\\.")}:\\d+/#/pair/[A-Za-z0-9_-]{22}$`));
    await expect(section.getByText(link)).toBeDefined();
    // The computer's Settings with the QR: 1280 and 420 px, light and dark, axe-clean.
    await shootAll(desktop, "device-settings", { show: ".pairing-offer" });

    phoneBrowser = await launchPhone(readFileSync(join(devicesDir, "device-cert.pem"), "utf8"));
    phoneContext = await phoneBrowser.newContext({ viewport: PHONES[0], isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    phoneContext.setDefaultTimeout(UI_TIMEOUT);
    phone = await phoneContext.newPage();
    await phone.goto(link);
    const form = phone.getByRole("form", { name: "Pair this device" });
    await form.waitFor();
    expect(await smallTargets(phone)).toEqual([]);
    await shootPhone(phone, "pair");

    // The phone's own namespace cannot reach the computer's loopback page: a real boundary.
    const loopback = await phone.evaluate(async (url) => fetch(url).then(() => "reached", () => "unreachable"), e2e.app.server.url);
    expect(loopback).toBe("unreachable");

    // The person went back to the Inbox meanwhile: the computer says a device asks, wherever they are.
    await desktop.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Inbox" }).click();
    await form.getByRole("textbox", { name: "Name this device" }).fill("Phone");
    await form.getByRole("button", { name: "Pair" }).tap();
    await phone.getByRole("status", { name: "Waiting for the computer" }).waitFor();
    await shootPhone(phone, "waiting");
    await desktop.getByRole("status", { name: "A device asks to pair" }).getByRole("button", { name: "Open Settings" }).click();
    await shootAll(desktop, "device-settings-asking", { show: ".devices-settings .device-list" });
    await section.getByRole("button", { name: "Confirm Phone" }).click();
    await phone.getByRole("navigation", { name: "Main" }).waitFor();
    const tabs = await phone.getByRole("navigation", { name: "Main" }).getByRole("button").allInnerTexts();
    expect(tabs).toEqual(["Inbox", "History"]);
    await section.getByRole("list", { name: "Paired devices" }).getByText("Phone").waitFor();

    // Installable: the manifest is served and read, and the service worker keeps the shell only.
    const manifest = await phone.evaluate(async () => {
      const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
      return link ? ((await (await fetch(link.href)).json()) as { name: string; icons: unknown[] }) : null;
    });
    expect(manifest?.name).toBe("Toolnexus Companion");
    expect(manifest?.icons.length).toBeGreaterThanOrEqual(2);
    const cached = await phone.evaluate(async () => {
      await navigator.serviceWorker.ready;
      const cache = await caches.open("tnc-shell-v1");
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    });
    expect(cached).toContain("/index.html");
    expect(cached.filter((p) => p.startsWith("/v1/") || p === "/ws")).toEqual([]);
  });

  it("answers a form question and an approval on the phone, and History says the phone answered", async () => {
    const form = ask(e2e.app, {
      id: `deploy-${tag}`,
      kind: "input",
      prompt: "Which environment should the release go to?",
      data: {
        schema: {
          type: "object",
          properties: {
            environment: { type: "string", title: "Environment", enum: ["staging", "production"] },
            note: { type: "string", title: "Release note" },
            notify: { type: "boolean", title: "Tell the team" },
          },
          required: ["environment"],
        },
      },
    });
    await phone.getByRole("list", { name: "Pending questions" }).getByRole("button", { name: /Which environment/ }).tap();
    const question = phone.getByRole("form", { name: "Question" });
    await question.waitFor();
    await question.getByRole("combobox", { name: "Environment" }).selectOption("staging");
    await question.getByRole("textbox", { name: "Release note" }).fill("Fixes the cart");
    await question.getByRole("checkbox", { name: "Tell the team" }).tap();
    expect(await smallTargets(phone)).toEqual([]);
    // The answer buttons sit at the bottom of the screen, in the thumb's reach.
    const accept = question.getByRole("button", { name: "Accept" });
    await expect.poll(() => accept.isEnabled(), { timeout: UI_TIMEOUT }).toBe(true);
    expect(await bottomGap(accept)).toBeLessThan(24);
    await shootPhone(phone, "form");
    await question.getByRole("button", { name: "Accept" }).tap();
    expect((await form).data).toEqual({ environment: "staging", note: "Fixes the cart", notify: true });

    const approval = ask(e2e.app, {
      id: `approve-${tag}`,
      kind: "approval",
      prompt: "Run npm publish?",
      data: { tool: "Bash", agent: "Claude Code", action: { kind: "shell", command: "npm publish --tag next" } },
    });
    await phone.getByRole("list", { name: "Pending questions" }).getByRole("button", { name: /npm publish|Run npm publish/ }).tap();
    const card = phone.getByRole("region", { name: /asks to/ });
    await card.waitFor();
    expect(await smallTargets(phone)).toEqual([]);
    expect(await bottomGap(card.getByRole("button", { name: "Allow" }))).toBeLessThan(24);
    await shootPhone(phone, "approval");
    await card.getByRole("button", { name: "Allow" }).tap();
    expect((await approval).ok).toBe(true);

    // Two link questions at once: the first takes the screen; the second is opened by its link
    // (what a notification points at), not from the list.
    const link = ask(e2e.app, { id: `link-${tag}`, kind: "authorization", prompt: "Approve the deploy in the dashboard", url: "https://dashboard.example/deploys/42" });
    const signIn = ask(e2e.app, { id: `signin-${tag}`, kind: "authorization", prompt: "Sign in to the tracker", url: "https://auth.example/authorize?client_id=c&redirect_uri=http%3A%2F%2F127.0.0.1%3A41234%2Fcallback" });
    await phone.getByRole("list", { name: "Pending questions" }).getByRole("button", { name: /Sign in to the tracker/ }).waitFor();
    const linkCard = (prompt: string) => phone.getByRole("region", { name: "Authorization request" }).filter({ hasText: prompt });
    await linkCard("Approve the deploy").waitFor();
    expect(e2e.app.core.deviceRegistry()!.questionUrl(`signin-${tag}`)).toBe(`${new URL(phone.url()).origin}/#/q/signin-${tag}`);
    await phone.evaluate((id) => (location.hash = `#/q/${encodeURIComponent(id)}`), `signin-${tag}`);

    // A sign-in that comes back to the computer's loopback: finished there, not opened here.
    const signInCard = linkCard("Sign in to the tracker");
    await signInCard.getByText("Finish this on the computer.").waitFor();
    expect(await signInCard.getByRole("button", { name: "Open in browser" }).count()).toBe(0);
    await shootPhone(phone, "sign-in");
    await signInCard.getByRole("button", { name: "Cancel" }).tap();
    expect((await signIn).ok).toBe(false);

    // A URL question opens in the phone's own browser, from the same consent card.
    await phone.getByRole("list", { name: "Pending questions" }).getByRole("button", { name: /Approve the deploy/ }).tap();
    const urlCard = linkCard("Approve the deploy");
    // The phone's namespace has no way out: the dashboard is played by the browser itself.
    await phoneContext.route("https://dashboard.example/**", (route) => route.fulfill({ contentType: "text/html", body: "<title>Dashboard</title>" }));
    const opened = phoneContext.waitForEvent("page");
    await urlCard.getByRole("button", { name: "Open in browser" }).tap();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe("https://dashboard.example/deploys/42");
    await tab.close();
    await urlCard.getByRole("button", { name: "Done" }).tap();
    expect((await link).ok).toBe(true);

    await phone.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "History" }).tap();
    const records = phone.getByRole("list", { name: "History records" });
    await expect.poll(() => records.getByText("by you on Phone").count(), { timeout: UI_TIMEOUT }).toBe(4);
    await expect(phone.getByRole("region", { name: "Keeping history" }).count()).resolves.toBe(0);
    await shootPhone(phone, "history");
  });

  it("is refused once revoked: its socket closes and it is back to the pairing screen", async () => {
    const key = await phone.evaluate(() => localStorage.getItem("tnc-device-key"));
    expect(key).toMatch(/^tncd1\./);
    await desktop.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Settings" }).click();
    await desktop.getByRole("button", { name: "Revoke Phone" }).click();
    await phone.getByRole("heading", { name: "This device is not paired" }).waitFor();
    const status = await phone.evaluate(async (k) => {
      const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      return (await fetch("/v1/pair/state", { headers: { "x-device-proof": `${k}.${Date.now()}.${nonce}` } })).status;
    }, key);
    expect(status).toBe(401);
    await shootPhone(phone, "revoked");
  });
});
