// Device keys and pairing codes. A key is `tncd1.<device id>.<secret>`: the id finds the device,
// the secret proves it. Only SHA-256 of the secret is kept (the secret is 32 random bytes, so a
// plain hash suffices; there is nothing to guess from it). Comparisons are constant-time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const PREFIX = "tncd1.";
const ID = /^[A-Za-z0-9_-]{16}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

export function newDeviceId(): string {
  return randomBytes(12).toString("base64url");
}

export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}

export function sameHash(given: string, kept: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(kept);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function deviceKey(id: string, secret: string): string {
  return `${PREFIX}${id}.${secret}`;
}

/** The id and secret of a presented key, or undefined when it is not shaped like one. */
export function readDeviceKey(key: string): { id: string; secret: string } | undefined {
  if (key.length > 100 || !key.startsWith(PREFIX)) return undefined;
  const [id, secret, ...rest] = key.slice(PREFIX.length).split(".");
  if (rest.length > 0 || !id || !secret || !ID.test(id) || !SECRET.test(secret)) return undefined;
  return { id, secret };
}

/** A pairing code: 16 random bytes, base64url (22 characters). */
export function newPairingCode(): string {
  return randomBytes(16).toString("base64url");
}

export const PAIRING_CODE = /^[A-Za-z0-9_-]{22}$/;
