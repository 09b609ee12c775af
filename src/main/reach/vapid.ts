// The companion's VAPID key pair (RFC 8292), made once and kept in the keychain: a push service
// ties each device's subscription to the public key it was made with, so a new pair would cut
// every paired device off. Without a keychain the pair lasts one session (secrets/open-store.ts:
// no secret the person did not choose goes to a file), and devices subscribe again after a restart.
import webPush from "web-push";
import type { SecretStore } from "../secrets";
import { VAPID_SECRET } from "./secret-names";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

function parse(text: string | undefined): VapidKeys | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<VapidKeys>;
    // P-256: a 65-byte uncompressed public point and a 32-byte private scalar, base64url.
    if (typeof value.publicKey === "string" && typeof value.privateKey === "string" && Buffer.from(value.publicKey, "base64url").length === 65 && Buffer.from(value.privateKey, "base64url").length === 32) {
      return { publicKey: value.publicKey, privateKey: value.privateKey };
    }
  } catch {
    // Not ours: made again below.
  }
  return undefined;
}

/** The kept pair, or a new one kept from now on. Concurrent callers share one read. */
export function vapidKeys(secrets: SecretStore): () => Promise<VapidKeys> {
  let pending: Promise<VapidKeys> | undefined;
  return () => {
    pending ??= (async () => {
      const kept = parse(await secrets.get(VAPID_SECRET));
      if (kept) return kept;
      const made = webPush.generateVAPIDKeys();
      await secrets.set(VAPID_SECRET, JSON.stringify(made));
      return made;
    })().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
