// The page as a paired device opens it, on the device listener (HTTPS, another address than the
// computer's loopback). Its key lives in this origin's storage and never leaves the device but
// inside a proof (`<key>.<time>.<nonce>`, a fresh nonce each time), which main checks against
// replay. The routes: `#/pair/<code>` (the pairing link), `#/q/<id>` (a link to one question).

const KEY = "tnc-device-key";
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** Served by the device listener: https, and not the computer's own loopback page. */
export function isDeviceMode(loc: Pick<Location, "protocol" | "hostname"> = location): boolean {
  return loc.protocol === "https:" && !LOOPBACK.has(loc.hostname);
}

export function storedKey(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function keepKey(key: string | null): void {
  try {
    if (key === null) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, key);
  } catch {
    // Storage refused (private mode): the pairing lasts as long as this page.
  }
}

function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// How far this device's clock is from the companion's, learnt from the Date of its answers: main
// refuses a proof more than a minute off, and a phone's clock can be (set by hand, no network time).
let clockOffsetMs = 0;

/** Learns the companion's time from a response; true when the offset changed by much. */
function learnClock(response: Response): boolean {
  const date = Date.parse(response.headers.get("date") ?? "");
  if (!Number.isFinite(date)) return false;
  const offset = date - Date.now();
  // Date has whole seconds: within 5 s, the device's clock is taken as it is.
  const next = Math.abs(offset) > 5_000 ? offset : 0;
  const changed = Math.abs(next - clockOffsetMs) > 5_000;
  clockOffsetMs = next;
  return changed;
}

export function deviceProof(key: string): string {
  return `${key}.${Date.now() + clockOffsetMs}.${nonce()}`;
}

export type Route = { kind: "pair"; code: string } | { kind: "question"; id: string } | { kind: "none" };

export function readRoute(hash: string = location.hash): Route {
  const pair = /^#\/pair\/([A-Za-z0-9_-]{1,64})$/.exec(hash);
  if (pair) return { kind: "pair", code: pair[1] };
  const question = /^#\/q\/([^/]{1,512})$/.exec(hash);
  if (question) {
    try {
      return { kind: "question", id: decodeURIComponent(question[1]) };
    } catch {
      return { kind: "none" };
    }
  }
  return { kind: "none" };
}

export type PairState = "asking" | "paired" | "refused" | "unreachable";

/** Whether this device's key is paired, still waiting for the person's yes, or refused. */
export async function pairState(key: string, retried = false): Promise<PairState> {
  try {
    const response = await fetch("/v1/pair/state", { headers: { "x-device-proof": deviceProof(key) }, cache: "no-store" });
    // Refused because this device's clock is off: once more with the companion's time.
    if (learnClock(response) && response.status === 401 && !retried) return pairState(key, true);
    if (response.status === 401) return "refused";
    if (!response.ok) return "unreachable";
    const body = (await response.json()) as { state?: string };
    return body.state === "paired" ? "paired" : body.state === "asking" ? "asking" : "unreachable";
  } catch {
    return "unreachable";
  }
}

/** Uses the pairing code under the name the person gave: the key, or why not in words. */
export async function askToPair(code: string, name: string): Promise<{ ok: true; key: string } | { ok: false; message: string }> {
  try {
    const response = await fetch("/v1/pair", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code, name }) });
    learnClock(response);
    if (response.status === 201) {
      const body = (await response.json()) as { key?: string };
      if (typeof body.key === "string") return { ok: true, key: body.key };
    }
    if (response.status === 429) return { ok: false, message: "Too many tries from this device. Wait a minute, then scan a new code." };
    return { ok: false, message: "This pairing link does not work (any more). Pairing links work once, for five minutes: show a new one in the computer's Settings." };
  } catch {
    return { ok: false, message: "The companion cannot be reached from this device. Is it on the same network as the computer?" };
  }
}

/**
 * A sign-in whose browser comes back to the computer's own loopback (OAuth's redirect_uri at
 * 127.0.0.1): opened on a phone it would end on a page the phone cannot reach.
 */
export function returnsToComputer(url: string): boolean {
  try {
    const redirect = new URL(url).searchParams.get("redirect_uri");
    if (!redirect) return false;
    return LOOPBACK.has(new URL(redirect).hostname);
  } catch {
    return false;
  }
}

/** Makes the page installable: the manifest, and the service worker that keeps the shell. */
export function installable(): void {
  const link = document.createElement("link");
  link.rel = "manifest";
  link.href = "./manifest.json";
  document.head.append(link);
  if ("serviceWorker" in navigator) void navigator.serviceWorker.register("./sw.js").catch(() => {});
}
