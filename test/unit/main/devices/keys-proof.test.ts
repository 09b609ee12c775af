import { describe, expect, it } from "vitest";
import type { IncomingMessage } from "node:http";
import { deviceKey, hashSecret, newDeviceId, newSecret, readDeviceKey, sameHash } from "../../../../src/main/devices/keys";
import { DEVICE_PROTOCOL, freshKey, proofOf, readProof } from "../../../../src/main/devices/proof";
import { ReplayGuard, REPLAY_WINDOW_MS } from "../../../../src/main/devices/replay";

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe("device keys", () => {
  it("reads back the id and secret of a key it made, and nothing shaped otherwise", () => {
    const id = newDeviceId();
    const secret = newSecret();
    expect(readDeviceKey(deviceKey(id, secret))).toEqual({ id, secret });
    for (const bad of ["", "tncd1.", `tncd1.${id}`, `tncd2.${id}.${secret}`, `tncd1.${id}.${secret}.x`, `tncd1.${id}!.${secret}`, `tncd1.${id}.${secret.slice(1)}`, "x".repeat(500)]) {
      expect(readDeviceKey(bad), bad).toBeUndefined();
    }
  });

  it("keeps only a hash, compared in constant time", () => {
    const secret = newSecret();
    expect(sameHash(hashSecret(secret), hashSecret(secret))).toBe(true);
    expect(sameHash(hashSecret(secret), hashSecret(newSecret()))).toBe(false);
    expect(sameHash("short", hashSecret(secret))).toBe(false);
    expect(hashSecret(secret)).not.toContain(secret);
  });
});

describe("device proofs", () => {
  const key = deviceKey(newDeviceId(), newSecret());
  it("reads a proof from the header, or from the subprotocol beside the device protocol", () => {
    const text = `${key}.${Date.now()}.${"n".repeat(22)}`;
    expect(proofOf(req({ "x-device-proof": text }))?.key).toBe(key);
    expect(proofOf(req({ "sec-websocket-protocol": `${DEVICE_PROTOCOL}, ${text}` }))?.key).toBe(key);
    // Without the device protocol offered, a subprotocol is not a proof.
    expect(proofOf(req({ "sec-websocket-protocol": text }))).toBeUndefined();
    expect(proofOf(req({ authorization: `Bearer ${key}` }))).toBeUndefined();
    expect(proofOf(req({ cookie: `tnc_device=${key}` }))).toBeUndefined();
    expect(readProof(`${key}.12.${"n".repeat(22)}`)).toBeUndefined();
  });

  it("takes a nonce once, and a time within a minute of now only", () => {
    let now = 1_800_000_000_000;
    const replay = new ReplayGuard(() => now);
    const nonce = "a".repeat(22);
    expect(freshKey(readProof(`${key}.${now}.${nonce}`), replay)).toBe(key);
    expect(freshKey(readProof(`${key}.${now}.${nonce}`), replay)).toBeUndefined();
    expect(freshKey(readProof(`${key}.${now - REPLAY_WINDOW_MS - 1}.${"b".repeat(22)}`), replay)).toBeUndefined();
    expect(freshKey(readProof(`${key}.${now + REPLAY_WINDOW_MS + 1}.${"c".repeat(22)}`), replay)).toBeUndefined();
    expect(freshKey(readProof(`${key}.${now}.short`), replay)).toBeUndefined();
    // Past its window the nonce is forgotten, and by then its time no longer passes either.
    now += REPLAY_WINDOW_MS + 1;
    expect(freshKey(readProof(`${key}.${now - REPLAY_WINDOW_MS - 1}.${nonce}`), replay)).toBeUndefined();
  });
});
