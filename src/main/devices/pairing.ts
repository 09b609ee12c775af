// Pairing, in memory only: the one pairing code in effect (5 minutes, used once), and the devices
// that used it and named themselves, waiting for the person's yes on the desktop. A device gets
// its key when it asks; the key works for nothing but asking "am I paired yet?" until the person
// says yes, and a no, or no answer within the code's five minutes, forgets it.
import { MAX_DEVICE_NAME, PAIRING_CODE_MS, type PairingAsk } from "../../shared/devices";
import { deviceKey, hashSecret, newDeviceId, newPairingCode, newSecret, PAIRING_CODE, sameHash } from "./keys";

/** At most this many devices may wait for the person's yes at once. */
const MAX_ASKING = 4;

export interface Asking extends PairingAsk {
  keyHash: string;
  expiresAt: number;
}

export type AskResult = { ok: true; id: string; key: string } | { ok: false };

/** A device's name as it gave it: trimmed, controls and marks of direction out, cut to length. */
export function deviceName(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, "").trim();
  if (clean.length === 0) return undefined;
  return [...clean].slice(0, MAX_DEVICE_NAME).join("");
}

export class Pairing {
  private code: { hash: string; expiresAt: number } | undefined;
  private readonly asking = new Map<string, Asking>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new code; the last one stops working. */
  offer(): { code: string; expiresAt: number } {
    const code = newPairingCode();
    const expiresAt = this.now() + PAIRING_CODE_MS;
    this.code = { hash: hashSecret(code), expiresAt };
    return { code, expiresAt };
  }

  /** The code in effect, if one is (for the Settings view). */
  offerExpiresAt(): number | undefined {
    if (this.code && this.code.expiresAt > this.now()) return this.code.expiresAt;
    return undefined;
  }

  /** A device used `code` and named itself: refused unless the code is the one in effect, unused and unexpired. */
  ask(code: unknown, name: unknown, from: string): AskResult {
    this.sweep();
    const given = typeof code === "string" && PAIRING_CODE.test(code) ? hashSecret(code) : "";
    const kept = this.code;
    if (!kept || !sameHash(given, kept.hash) || kept.expiresAt <= this.now()) return { ok: false };
    const clean = deviceName(name);
    if (!clean || this.asking.size >= MAX_ASKING) return { ok: false };
    // Used once: whatever happens next, this code pairs nobody else.
    this.code = undefined;
    const id = newDeviceId();
    const secret = newSecret();
    this.asking.set(id, { id, name: clean, from, askedAt: this.now(), keyHash: hashSecret(secret), expiresAt: kept.expiresAt });
    return { ok: true, id, key: deviceKey(id, secret) };
  }

  /** The device waiting under `id` whose key hashes to `keyHash`, if it still waits. */
  waiting(id: string, keyHash: string): Asking | undefined {
    this.sweep();
    const ask = this.asking.get(id);
    return ask && sameHash(keyHash, ask.keyHash) ? ask : undefined;
  }

  /** Takes the device out of the waiting list (the person said yes or no). */
  settle(id: string): Asking | undefined {
    this.sweep();
    const ask = this.asking.get(id);
    this.asking.delete(id);
    return ask;
  }

  list(): PairingAsk[] {
    this.sweep();
    return [...this.asking.values()].map(({ id, name, from, askedAt }) => ({ id, name, from, askedAt }));
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, ask] of this.asking) if (ask.expiresAt <= now) this.asking.delete(id);
    if (this.code && this.code.expiresAt <= now) this.code = undefined;
  }
}
