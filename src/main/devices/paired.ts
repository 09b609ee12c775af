// The paired devices: who they are, the check of a presented key, and every change to the list
// (confirmed, revoked, seen, subscribed), saved to the devices file and told to listeners. A
// revoked device's open sessions are closed by whoever listens to onRevoke (listener.ts).
import { MAX_DEVICES, type DeviceView } from "../../shared/devices";
import type { Book, StoredDevice } from "./book";
import type { DevicePushSubscription, PairedDevice } from "./devices";
import { hashSecret, readDeviceKey, sameHash } from "./keys";
import type { Asking, Pairing } from "./pairing";

/** Last-seen times are saved at most this often per device (every request updates them). */
const SEEN_SAVE_MS = 60_000;

export type KeyCheck = { state: "paired"; device: StoredDevice } | { state: "asking"; ask: Asking } | { state: "refused" };

export class PairedDevices {
  private readonly changeListeners = new Set<(devices: PairedDevice[]) => void>();
  private readonly revokeListeners = new Set<(id: string) => void>();

  constructor(
    private readonly book: Book,
    readonly pairing: Pairing,
    private readonly now: () => number = Date.now,
    private readonly log: (line: string) => void = () => {},
  ) {}

  list(): PairedDevice[] {
    return this.book.data.devices.map(({ id, name, pairedAt, lastSeenAt, push }) => ({
      id,
      name,
      pairedAt,
      ...(lastSeenAt !== undefined ? { lastSeenAt } : {}),
      ...(push ? { push: { ...push, keys: { ...push.keys } } } : {}),
    }));
  }

  views(): DeviceView[] {
    return this.book.data.devices.map(({ id, name, pairedAt, lastSeenAt, push }) => ({ id, name, pairedAt, ...(lastSeenAt !== undefined ? { lastSeenAt } : {}), push: push !== undefined }));
  }

  nameOf(id: string): string | undefined {
    return this.find(id)?.name;
  }

  /** What a presented key is: a paired device's, one still waiting for the person's yes, or nothing. */
  check(key: string): KeyCheck {
    const parts = readDeviceKey(key);
    if (!parts) return { state: "refused" };
    const hash = hashSecret(parts.secret);
    const device = this.find(parts.id);
    if (device) return sameHash(hash, device.keyHash) ? { state: "paired", device } : { state: "refused" };
    const ask = this.pairing.waiting(parts.id, hash);
    return ask ? { state: "asking", ask } : { state: "refused" };
  }

  /** The person's yes or no to a device asking; false when it no longer asks (or the list is full). */
  confirm(id: string, ok: boolean): boolean {
    if (ok && this.book.data.devices.length >= MAX_DEVICES) return false;
    const ask = this.pairing.settle(id);
    if (!ask) return false;
    if (!ok) {
      this.log(`devices: the pairing of "${ask.name}" was refused`);
      return true;
    }
    this.book.data.devices.push({ id: ask.id, name: ask.name, keyHash: ask.keyHash, pairedAt: this.now() });
    this.saved();
    this.log(`devices: "${ask.name}" paired`);
    return true;
  }

  /** Forgets the device now; its sessions are closed by the revoke listeners. False for an unknown id. */
  revoke(id: string): boolean {
    const devices = this.book.data.devices;
    const index = devices.findIndex((d) => d.id === id);
    if (index < 0) return false;
    const [gone] = devices.splice(index, 1);
    this.saved();
    for (const listener of this.revokeListeners) listener(id);
    this.log(`devices: "${gone.name}" revoked`);
    return true;
  }

  /** A request of the device was accepted. */
  seen(id: string): void {
    const device = this.find(id);
    if (!device) return;
    const now = this.now();
    const saveAgain = device.lastSeenAt === undefined || now - device.lastSeenAt >= SEEN_SAVE_MS;
    if (!saveAgain) return;
    device.lastSeenAt = now;
    this.saved();
  }

  setPushSubscription(id: string, subscription: DevicePushSubscription | undefined): boolean {
    const device = this.find(id);
    if (!device) return false;
    if (subscription) device.push = subscription;
    else delete device.push;
    this.saved();
    return true;
  }

  onChange(listener: (devices: PairedDevice[]) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onRevoke(listener: (id: string) => void): () => void {
    this.revokeListeners.add(listener);
    return () => this.revokeListeners.delete(listener);
  }

  /** Tells the listeners the list changed without a save (a pairing asked, an offer made). */
  changed(): void {
    const list = this.list();
    for (const listener of this.changeListeners) {
      try {
        listener(list);
      } catch {
        // One broken listener must not stop the others.
      }
    }
  }

  private find(id: string): StoredDevice | undefined {
    return this.book.data.devices.find((d) => d.id === id);
  }

  private saved(): void {
    try {
      this.book.save();
    } catch (error) {
      this.log(`devices: the devices file could not be written (${(error as Error).message}); the change lasts until the companion stops`);
    }
    this.changed();
  }
}
