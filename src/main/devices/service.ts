// The devices feature as the companion runs it: the person's setting (off until turned on), the
// device listener it starts and stops, pairing offers with their QR code, and the paired devices.
// It is the DeviceRegistry other features read (devices.ts), and what the desktop's Settings
// handlers act on (handlers.ts).
import { toDataURL } from "qrcode";
import type { WebSocket } from "ws";
import type { DeviceListenerSetting, DevicesState, PairingOffer } from "../../shared/devices";
import { addressProblem, deviceAddresses } from "./addresses";
import { openBook, readSetting, type StoredDevice } from "./book";
import { listenerCertificate } from "./certificate";
import type { DevicePublicRoute, DevicePushSubscription, DeviceRegistry, PairedDevice } from "./devices";
import { startDeviceListener, type DeviceListener, type DeviceListenerOptions } from "./listener";
import { PairedDevices } from "./paired";
import { Pairing } from "./pairing";
import { ReplayGuard } from "./replay";
import { publicEndpoint } from "./host-check";
import type { DeviceAddress } from "../../shared/devices";

export interface DeviceServiceOptions {
  /** The devices folder (paths.ts): the file and the companion's own certificate. */
  dir: string;
  /** The built renderer the device page is served from. */
  staticDir: string;
  /** A paired device's authenticated WebSocket (app/device-server.ts serves it). */
  onSocket(ws: WebSocket, device: StoredDevice): void;
  log?: (line: string) => void;
  now?: () => number;
  /** This machine's addresses (tests pass their own). */
  addresses?: () => DeviceAddress[];
  listener?: Partial<Pick<DeviceListenerOptions, "attemptsPerMinute" | "deadlines">>;
}

export class DeviceService implements DeviceRegistry {
  readonly devices: PairedDevices;
  private readonly routes: DevicePublicRoute[] = [];
  private pushKey: (() => Promise<string>) | undefined;
  private listener: DeviceListener | undefined;
  private fingerprint: string | undefined;
  private problem: string | undefined;
  private offer: PairingOffer | undefined;
  private readonly stateListeners = new Set<(state: DevicesState) => void>();
  private readonly book;
  private readonly log: (line: string) => void;
  private readonly now: () => number;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly replay: ReplayGuard;

  constructor(private readonly options: DeviceServiceOptions) {
    this.log = options.log ?? (() => {});
    this.now = options.now ?? Date.now;
    this.book = openBook(options.dir, this.log);
    this.problem = this.book.problem;
    this.devices = new PairedDevices(this.book, new Pairing(this.now), this.now, this.log);
    this.replay = new ReplayGuard(this.now);
    this.devices.onChange(() => this.emit());
  }

  // DeviceRegistry
  list(): PairedDevice[] {
    return this.devices.list();
  }
  setPushSubscription(id: string, subscription: DevicePushSubscription | undefined): boolean {
    return this.devices.setPushSubscription(id, subscription);
  }
  baseUrl(): string | undefined {
    return this.listener?.url;
  }
  questionUrl(questionId: string): string | undefined {
    const base = this.baseUrl();
    return base ? `${base}/#/q/${encodeURIComponent(questionId)}` : undefined;
  }
  onChange(listener: (devices: PairedDevice[]) => void): () => void {
    return this.devices.onChange(listener);
  }
  addPublicRoute(route: DevicePublicRoute): void {
    if (!route.prefix.startsWith("/v1/") || ["/v1/pair", "/v1/device"].some((p) => route.prefix.startsWith(p))) {
      throw new Error(`a public route of the device listener lives under /v1/ and not under /v1/pair or /v1/device, not at "${route.prefix}"`);
    }
    this.routes.push(route);
  }
  usePushKey(key: () => Promise<string>): void {
    this.pushKey = key;
  }

  /** Everything Settings shows. */
  state(): DevicesState {
    const expiresAt = this.devices.pairing.offerExpiresAt();
    if (!expiresAt || !this.offer || this.offer.expiresAt !== expiresAt) this.offer = undefined;
    return {
      setting: structuredClone(this.book.data.setting),
      addresses: this.addresses(),
      ...(this.listener ? { url: this.listener.url } : {}),
      ...(this.listener && this.fingerprint ? { fingerprint: this.fingerprint } : {}),
      ...(this.problem ? { problem: this.problem } : {}),
      devices: this.devices.views(),
      asking: this.devices.pairing.list(),
      ...(this.offer ? { offer: { ...this.offer } } : {}),
    };
  }

  onState(listener: (state: DevicesState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Starts the listener when the kept setting has it on (at the companion's start). */
  start(): Promise<DevicesState> {
    return this.serial(() => this.apply());
  }

  /** The person's new setting: kept, then the listener restarted to match it. Throws in words on a bad one. */
  configure(value: unknown): Promise<DevicesState> {
    const setting = readSetting(value);
    return this.serial(async () => {
      this.book.data.setting = setting;
      this.book.save();
      return this.apply();
    });
  }

  async startPairing(): Promise<DevicesState> {
    const base = this.baseUrl();
    if (!base) throw new Error("turn on answering from another device first");
    const { code, expiresAt } = this.devices.pairing.offer();
    const link = `${base}/#/pair/${code}`;
    const qr = await toDataURL(link, { errorCorrectionLevel: "M", margin: 2, width: 288 });
    this.offer = { link, qr, expiresAt };
    return this.emit();
  }

  confirm(id: string, ok: boolean): DevicesState {
    if (!this.devices.confirm(id, ok)) throw new Error("that device no longer asks to pair (it waited more than five minutes, or the list of devices is full)");
    return this.emit();
  }

  revoke(id: string): DevicesState {
    if (!this.devices.revoke(id)) throw new Error("no paired device has that id");
    return this.emit();
  }

  close(): Promise<void> {
    this.stateListeners.clear();
    return this.serial(() => this.stop());
  }

  private addresses(): DeviceAddress[] {
    return (this.options.addresses ?? deviceAddresses)();
  }

  private async apply(): Promise<DevicesState> {
    await this.stop();
    const setting: DeviceListenerSetting = this.book.data.setting;
    this.problem = undefined;
    if (setting.enabled) {
      try {
        await this.listen(setting);
      } catch (error) {
        this.problem = `the device listener could not start: ${(error as Error).message}`;
        this.log(`devices: ${this.problem}`);
      }
    }
    return this.emit();
  }

  private async listen(setting: DeviceListenerSetting): Promise<void> {
    const problem = addressProblem(setting.address, this.addresses());
    if (problem) throw new Error(problem);
    const address = setting.address!;
    const certificate = await listenerCertificate(this.options.dir, setting.certificate, setting.publicHost ? publicEndpoint(setting.publicHost, setting.port).name : address);
    this.listener = await startDeviceListener({
      address,
      port: setting.port,
      ...(setting.publicHost ? { publicHost: setting.publicHost } : {}),
      certificate,
      staticDir: this.options.staticDir,
      devices: this.devices,
      onSocket: this.options.onSocket,
      publicRoutes: () => this.routes,
      pushKey: async () => this.pushKey?.(),
      log: this.log,
      now: this.now,
      replay: this.replay,
      ...this.options.listener,
    });
    this.fingerprint = certificate.fingerprint;
    this.log(`devices: answering from other devices at ${this.listener.url} (certificate SHA-256 ${certificate.fingerprint})`);
  }

  private async stop(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    this.fingerprint = undefined;
    this.offer = undefined;
    if (listener) await listener.close();
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  private emit(): DevicesState {
    const state = this.state();
    for (const listener of this.stateListeners) {
      try {
        listener(state);
      } catch {
        // One broken view must not stop the others.
      }
    }
    return state;
  }
}
