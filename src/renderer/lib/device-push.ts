// Notifications on a paired device: its page subscribes to Web Push with the companion's VAPID
// public key and hands the subscription to the device listener (`POST /v1/device/push`, with the
// device's proof), which reach/ pushes questions to. The browser's permission is asked only from
// the person's press of "Notify me on this device" (turnOn is called from that click and from
// nothing else); loading the page never asks and never subscribes.
import { deviceProof } from "./device";

export const PUSH_PATH = "/v1/device/push";

/** unsupported: this browser has no Web Push (an iPhone's page not added to the home screen). */
export type PushState = "unsupported" | "denied" | "off" | "on";

export function pushSupported(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

interface Told {
  push: boolean;
  key?: string;
}

/** What the companion knows of this device's push: subscribed or not, and the key to subscribe with. */
async function told(deviceKey: string): Promise<Told | undefined> {
  try {
    const response = await fetch(PUSH_PATH, { headers: { "x-device-proof": deviceProof(deviceKey) }, cache: "no-store" });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { push?: unknown; key?: unknown };
    return { push: body.push === true, ...(typeof body.key === "string" ? { key: body.key } : {}) };
  } catch {
    return undefined;
  }
}

async function hand(deviceKey: string, subscription: PushSubscriptionJSON | null): Promise<boolean> {
  try {
    const response = await fetch(PUSH_PATH, {
      method: "POST",
      headers: { "content-type": "application/json", "x-device-proof": deviceProof(deviceKey) },
      body: JSON.stringify({ subscription }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** The state shown when the page opens: read only, nothing asked of the person or the browser. */
export async function pushState(deviceKey: string): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  if (Notification.permission !== "granted") return "off";
  const registration = await navigator.serviceWorker.getRegistration();
  const local = await registration?.pushManager.getSubscription();
  if (!local) return "off";
  return (await told(deviceKey))?.push ? "on" : "off";
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function sameKey(subscription: PushSubscription, key: Uint8Array<ArrayBuffer>): boolean {
  const own = subscription.options.applicationServerKey;
  if (!own) return false;
  const bytes = new Uint8Array(own);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

export type PushResult = { ok: true; state: PushState } | { ok: false; state: PushState; message: string };

/** Asks the browser's permission, subscribes, and hands the subscription over. Call it only from a click. */
export async function turnOn(deviceKey: string): Promise<PushResult> {
  if (!pushSupported()) return { ok: false, state: "unsupported", message: "This browser cannot show notifications from this page." };
  // First, while the press still counts as the person's: the browser prompts only then.
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    return {
      ok: false,
      state: permission === "denied" ? "denied" : "off",
      message: permission === "denied" ? "Notifications are blocked for this page. Allow them in the browser's site settings, then press the button again." : "Notifications were not allowed.",
    };
  }
  const companion = await told(deviceKey);
  if (!companion?.key) return { ok: false, state: "off", message: "The companion did not give this device its notification key. Is it running? Try again." };
  try {
    const key = keyBytes(companion.key);
    const registration = await navigator.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    // A subscription made with another key (the companion's keychain was reset) is useless.
    if (subscription && !sameKey(subscription, key)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    if (!(await hand(deviceKey, subscription.toJSON()))) return { ok: false, state: "off", message: "The companion did not take this device's subscription. Try again." };
    return { ok: true, state: "on" };
  } catch (error) {
    return { ok: false, state: "off", message: `This browser could not subscribe to notifications: ${(error as Error).message}` };
  }
}

/** Tells the companion to stop, then drops the browser's subscription. */
export async function turnOff(deviceKey: string): Promise<PushResult> {
  if (!(await hand(deviceKey, null))) return { ok: false, state: "on", message: "The companion could not be told. Try again." };
  const registration = pushSupported() ? await navigator.serviceWorker.getRegistration() : undefined;
  await (await registration?.pushManager.getSubscription())?.unsubscribe().catch(() => false);
  return { ok: true, state: "off" };
}
