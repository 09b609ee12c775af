// What other parts of the companion may know of the paired devices: who they are, where a device
// reaches the companion, and the push subscription a device's page handed over. The registry
// itself (registry.ts) keeps the device keys; nothing here ever carries one.
import type { IncomingMessage, ServerResponse } from "node:http";

/** A Web Push subscription as a device's page gives it (PushSubscription.toJSON()). */
export interface DevicePushSubscription {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

/** One paired device as every view and feature sees it (never its key, never its key's hash). */
export interface PairedDevice {
  /** Random, stable, safe to show and to put in links (not a credential). */
  id: string;
  /** What the device called itself when it paired ("Phone"). */
  name: string;
  /** Epoch ms the person confirmed the pairing. */
  pairedAt: number;
  /** Epoch ms of the device's last accepted request; absent until it made one after pairing. */
  lastSeenAt?: number;
  /** Set by the device's page when it allows notifications; absent otherwise. */
  push?: DevicePushSubscription;
}

/**
 * A route other features mount on the device listener (the signed single-use ntfy actions).
 * It is served after the listener's Host and Origin checks and its per-address rate limit, but
 * without a device key: the route's own credential (a signed link) is its whole check.
 */
export interface DevicePublicRoute {
  /** `/v1/act` matches `/v1/act`, `/v1/act/…` and `/v1/act?…`. Never `/`, `/ws` or `/pair`. */
  prefix: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> | void;
}

/**
 * Where a device's page hands over its subscription: `POST /v1/device/push` on the device listener,
 * `{ "subscription": PushSubscription.toJSON() }` (or `null` to forget it), with the device's proof
 * (listener.ts); it lands in setPushSubscription. `GET` there, with the proof, answers whether this
 * device is subscribed and the key to subscribe with (usePushKey). The core hands the registry out as
 * `core.deviceRegistry()`.
 */
export interface DeviceRegistry {
  /** The confirmed devices, oldest first. */
  list(): PairedDevice[];
  /** Keeps (or with undefined, forgets) a device's push subscription; false for an unknown id. */
  setPushSubscription(id: string, subscription: DevicePushSubscription | undefined): boolean;
  /** `https://<address>:<port>` of the device listener while it runs, else undefined. */
  baseUrl(): string | undefined;
  /** The link that opens one question on a device's page (`<baseUrl>/#/q/<id>`), else undefined. */
  questionUrl(questionId: string): string | undefined;
  /** Called after every change of the list (paired, revoked, seen, subscription). Returns the undo. */
  onChange(listener: (devices: PairedDevice[]) => void): () => void;
  /** Mounts a public route on the device listener (now, and again on every restart of it). */
  addPublicRoute(route: DevicePublicRoute): void;
  /** The key a device's page subscribes to push with (VAPID's public key), served by `GET /v1/device/push`. */
  usePushKey(key: () => Promise<string>): void;
}
