// Answering from another device, as the desktop's Settings sees it: the device listener's setting,
// the addresses it may listen on, the paired devices, a pairing in progress and the devices asking
// to pair. Plain data; main's side is src/main/devices/.

/** Where the device listener's certificate comes from. */
export type DeviceCertificateSetting = { kind: "own" } | { kind: "supplied"; certPath: string; keyPath: string };

/** The person's choice, kept in the devices file. Off until they turn it on. */
export interface DeviceListenerSetting {
  enabled: boolean;
  /** An address of one of this machine's interfaces (never 0.0.0.0 or ::). */
  address?: string;
  /** Default 7316; 0 picks a free one. */
  port: number;
  certificate: DeviceCertificateSetting;
  /**
   * The name the devices use when it is not the address: the certificate's name (`tailscale
   * cert`), or the name `tailscale serve` answers at. Host and Origin must then carry this name.
   */
  publicHost?: string;
}

/** One address a person may pick: an interface of this machine. */
export interface DeviceAddress {
  address: string;
  /** The interface's name (eth0, wlan0, tailscale0). */
  interface: string;
  family: "IPv4" | "IPv6";
  /** Tailscale's 100.64.0.0/10 or fd7a:115c:a1e0::/48. */
  tailnet: boolean;
}

export interface DeviceView {
  id: string;
  name: string;
  pairedAt: number;
  lastSeenAt?: number;
  /** Whether its page allows notifications. */
  push: boolean;
}

/** A device that opened a pairing link and named itself, waiting for the person's yes. */
export interface PairingAsk {
  id: string;
  name: string;
  /** The address it asked from. */
  from: string;
  askedAt: number;
}

/** A pairing link shown in Settings: the QR code and the same link as text. */
export interface PairingOffer {
  link: string;
  /** A PNG of the QR code, as a data: URL. */
  qr: string;
  expiresAt: number;
}

export interface DevicesState {
  setting: DeviceListenerSetting;
  /** Addresses of this machine's interfaces a device could reach (no loopback). */
  addresses: DeviceAddress[];
  /** `https://…` while the listener runs. */
  url?: string;
  /** SHA-256 of the certificate in use, as `AB:CD:…`, while the listener runs. */
  fingerprint?: string;
  /** Why the listener is not running although it is on, in words. */
  problem?: string;
  devices: DeviceView[];
  asking: PairingAsk[];
  /** The pairing link in effect, until it is used or expires. */
  offer?: PairingOffer;
}

/** What devices:configure takes: the listener's setting, whole. */
export type DevicesConfigureArg = DeviceListenerSetting;

export interface DevicesInvokeMap {
  "devices:get": [void, DevicesState];
  "devices:configure": [DevicesConfigureArg, DevicesState];
  /** A new one-time pairing link (the last one stops working). */
  "devices:startPairing": [void, DevicesState];
  /** The person's yes or no to a device asking to pair. */
  "devices:confirm": [{ id: string; ok: boolean }, DevicesState];
  /** Forgets a device at once: its open sessions close. */
  "devices:revoke": [{ id: string }, DevicesState];
}

export const DEVICES_INVOKE_CHANNELS = ["devices:get", "devices:configure", "devices:startPairing", "devices:confirm", "devices:revoke"] as const satisfies readonly (keyof DevicesInvokeMap)[];

export interface DevicesEventMap {
  "devices:changed": DevicesState;
}

export const DEVICES_EVENT_CHANNELS = ["devices:changed"] as const satisfies readonly (keyof DevicesEventMap)[];

/** The port the device listener takes unless told otherwise. */
export const DEFAULT_DEVICE_PORT = 7316;
/** How long a pairing link works. */
export const PAIRING_CODE_MS = 5 * 60_000;
/** Longest name a device may give itself. */
export const MAX_DEVICE_NAME = 40;
/** Most devices one companion pairs. */
export const MAX_DEVICES = 20;
