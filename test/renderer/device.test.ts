// The page on a paired device: when it is in device mode, the routes of its links, a sign-in that
// a phone cannot finish, the proof it sends, and Settings' devices section on the computer.
import { describe, expect, it, vi, afterEach } from "vitest";
import { render, screen, fireEvent, waitFor } from "@testing-library/svelte";
import UrlCard from "../../src/renderer/components/UrlCard.svelte";
import DevicesSettings from "../../src/renderer/components/DevicesSettings.svelte";
import { deviceProof, isDeviceMode, pairState, readRoute, returnsToComputer } from "../../src/renderer/lib/device";
import { DevicesStore } from "../../src/renderer/lib/devices.svelte";
import { Clock } from "../../src/renderer/lib/clock.svelte";
import { caller } from "../../src/renderer/lib/api";
import { devicesOff, entry, fakeApi, ok } from "./fake-api";
import type { DevicesState } from "../../src/shared/devices";

afterEach(() => vi.restoreAllMocks());

describe("device mode", () => {
  it("is the https page on another address than the computer's loopback", () => {
    expect(isDeviceMode({ protocol: "https:", hostname: "10.231.0.1" })).toBe(true);
    expect(isDeviceMode({ protocol: "https:", hostname: "machine.tailnet.ts.net" })).toBe(true);
    expect(isDeviceMode({ protocol: "http:", hostname: "127.0.0.1" })).toBe(false);
    expect(isDeviceMode({ protocol: "https:", hostname: "localhost" })).toBe(false);
    expect(isDeviceMode({ protocol: "companion:", hostname: "app" })).toBe(false);
  });

  it("reads the pairing link and a question's link, and nothing else", () => {
    expect(readRoute("#/pair/abcDEF_-123")).toEqual({ kind: "pair", code: "abcDEF_-123" });
    expect(readRoute("#/q/elc-1%2F2")).toEqual({ kind: "question", id: "elc-1/2" });
    expect(readRoute("#/q/%E0%A4%A")).toEqual({ kind: "none" });
    expect(readRoute("#/pair/<script>")).toEqual({ kind: "none" });
    expect(readRoute("")).toEqual({ kind: "none" });
  });

  it("proves its key with the time and a new nonce each time", () => {
    const a = deviceProof("tncd1.id.secret").split(".");
    const b = deviceProof("tncd1.id.secret").split(".");
    expect(a.slice(0, 3)).toEqual(["tncd1", "id", "secret"]);
    expect(Math.abs(Number(a[3]) - Date.now())).toBeLessThan(5000);
    expect(a[4]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a[4]).not.toBe(b[4]);
  });

  it("proves with the companion's time when its own clock is off, learnt from the answers' Date", async () => {
    const companionNow = Date.now() + 10 * 60_000;
    const times: number[] = [];
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      const proof = String((init?.headers as Record<string, string>)["x-device-proof"]);
      const time = Number(proof.split(".")[3]);
      times.push(time);
      const fresh = Math.abs(time - companionNow) < 60_000;
      return new Response(fresh ? JSON.stringify({ state: "paired" }) : "Refused.", { status: fresh ? 200 : 401, headers: { date: new Date(companionNow).toUTCString() } });
    });
    vi.stubGlobal("fetch", fetchMock);
    expect(await pairState("tncd1.id.secret")).toBe("paired");
    expect(times).toHaveLength(2);
    expect(Math.abs(times[1] - companionNow)).toBeLessThan(5_000);
    vi.unstubAllGlobals();
  });

  it("says a sign-in that returns to the computer's loopback is finished there, and offers no Open", () => {
    const url = "https://auth.example.com/authorize?client_id=x&redirect_uri=http%3A%2F%2F127.0.0.1%3A40123%2Fcallback";
    expect(returnsToComputer(url)).toBe(true);
    expect(returnsToComputer("https://auth.example.com/authorize?redirect_uri=https%3A%2F%2Fapp.example%2Fcb")).toBe(false);
    const e = entry({ kind: "authorization", prompt: "Sign in to GitHub", url });
    render(UrlCard, { props: { entry: e, answer: vi.fn(async (a) => ok(a)), openUrl: vi.fn(), onDevice: true } });
    expect(screen.getByRole("note").textContent).toMatch(/Finish this on the computer/);
    expect(screen.queryByRole("button", { name: "Open in browser" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Done" })).toBeNull();
    expect(screen.getByRole("button", { name: "Decline" })).toBeTruthy();
  });

  it("on the computer, the same sign-in is opened as ever", () => {
    const e = entry({ kind: "authorization", prompt: "Sign in", url: "https://auth.example.com/a?redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcb" });
    render(UrlCard, { props: { entry: e, answer: vi.fn(async (a) => ok(a)), openUrl: vi.fn() } });
    expect(screen.getByRole("button", { name: "Open in browser" })).toBeTruthy();
    expect(screen.queryByText(/Finish this on the computer/)).toBeNull();
  });
});

describe("Settings → Answer from another device", () => {
  it("is not shown when this run of the companion keeps no devices", async () => {
    const api = fakeApi({ "devices:get": async () => ({ ok: false, error: { code: "unavailable", message: "not in this run" } }) });
    const devices = new DevicesStore(caller(api));
    render(DevicesSettings, { props: { devices, clock: new Clock() } });
    await waitFor(() => expect(devices.available).toBe(false));
    expect(screen.queryByRole("region", { name: "Answer from another device" })).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("is off, turns on with the picked address, shows the QR and confirms and revokes devices", async () => {
    const running: DevicesState = {
      ...devicesOff,
      setting: { enabled: true, address: "192.168.1.20", port: 7316, certificate: { kind: "own" } },
      url: "https://192.168.1.20:7316",
      fingerprint: "AB:CD",
      asking: [{ id: "a1", name: "Phone", from: "192.168.1.23", askedAt: 1 }],
      devices: [{ id: "d1", name: "Tablet", pairedAt: 1, push: false }],
      offer: { link: "https://192.168.1.20:7316/#/pair/abc", qr: "data:image/png;base64,iVBORw0KGgo=", expiresAt: Date.now() + 300_000 },
    };
    const api = fakeApi({ "devices:configure": async () => ok(running), "devices:confirm": async () => ok({ ...running, asking: [] }), "devices:revoke": async () => ok({ ...running, devices: [] }) });
    const devices = new DevicesStore(caller(api));
    render(DevicesSettings, { props: { devices, clock: new Clock() } });
    const on = (await screen.findByRole("checkbox", { name: "Answer from another device" })) as HTMLInputElement;
    expect(on.checked).toBe(false);
    await fireEvent.click(on);
    await fireEvent.click(screen.getByRole("button", { name: "Apply" }));
    await waitFor(() => expect(api.fn("devices:configure")).toHaveBeenCalledWith({ enabled: true, address: "192.168.1.20", port: 7316, certificate: { kind: "own" } }));
    expect((await screen.findByRole("img", { name: "Pairing QR code" })).getAttribute("src")).toBe(running.offer!.qr);
    expect(screen.getByText("AB:CD")).toBeTruthy();
    await fireEvent.click(screen.getByRole("button", { name: "Confirm Phone" }));
    await waitFor(() => expect(api.fn("devices:confirm")).toHaveBeenCalledWith({ id: "a1", ok: true }));
    await fireEvent.click(screen.getByRole("button", { name: "Revoke Tablet" }));
    await waitFor(() => expect(api.fn("devices:revoke")).toHaveBeenCalledWith({ id: "d1" }));
    await waitFor(() => expect(screen.getByText("No device is paired.")).toBeTruthy());
  });
});
