// The devices file: the listener's setting and the paired devices (each with the hash of its
// key, never the key). Read once at start and rewritten whole on every change through the one
// safe writer, 0600 in a 0700 folder. A file that cannot be read is set aside, not trusted:
// the companion then starts with the listener off and no device paired, and says so.
import { renameSync } from "node:fs";
import { join } from "node:path";
import type { DeviceListenerSetting } from "../../shared/devices";
import { DEFAULT_DEVICE_PORT, MAX_DEVICE_NAME, MAX_DEVICES } from "../../shared/devices";
import { isPlainObject } from "../../shared/unknown-value";
import { readPrivateFile, replacePrivateFile } from "../base/private-file";
import type { DevicePushSubscription } from "./devices";
import { DEVICES_FILE } from "./paths";

export interface StoredDevice {
  id: string;
  name: string;
  /** hashSecret(secret), base64url. */
  keyHash: string;
  pairedAt: number;
  lastSeenAt?: number;
  push?: DevicePushSubscription;
}

export interface BookData {
  setting: DeviceListenerSetting;
  devices: StoredDevice[];
}

export const OFF_SETTING: DeviceListenerSetting = { enabled: false, port: DEFAULT_DEVICE_PORT, certificate: { kind: "own" } };

const MAX_FILE_BYTES = 256 * 1024;
const MAX_PATH = 4096;

function text(value: unknown, max: number): string | undefined {
  return typeof value === "string" && value.length > 0 && value.length <= max ? value : undefined;
}

function time(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** A push subscription as a page hands it over, or undefined when it is not one. */
export function readPushSubscription(value: unknown): DevicePushSubscription | undefined {
  if (!isPlainObject(value) || !isPlainObject(value.keys)) return undefined;
  const endpoint = text(value.endpoint, 2048);
  const p256dh = text(value.keys.p256dh, 200);
  const auth = text(value.keys.auth, 100);
  if (!endpoint || !p256dh || !auth || !/^https:\/\//.test(endpoint)) return undefined;
  const expirationTime = typeof value.expirationTime === "number" ? value.expirationTime : null;
  return { endpoint, expirationTime, keys: { p256dh, auth } };
}

/** The setting as the file or the page gives it; throws in words when it is not one. */
export function readSetting(value: unknown): DeviceListenerSetting {
  if (!isPlainObject(value)) throw new Error("the device listener's setting must be an object");
  if (typeof value.enabled !== "boolean") throw new Error('"enabled" must be true or false');
  const port = value.port === undefined ? DEFAULT_DEVICE_PORT : value.port;
  if (typeof port !== "number" || !Number.isInteger(port) || port < 0 || port > 65535) throw new Error('"port" must be a port number (0–65535)');
  const setting: DeviceListenerSetting = { enabled: value.enabled, port, certificate: { kind: "own" } };
  if (value.address !== undefined) {
    const address = text(value.address, 64);
    if (!address) throw new Error('"address" must be an address of this machine');
    setting.address = address;
  }
  const cert = value.certificate;
  if (isPlainObject(cert) && cert.kind === "supplied") {
    const certPath = text(cert.certPath, MAX_PATH);
    const keyPath = text(cert.keyPath, MAX_PATH);
    if (!certPath || !keyPath) throw new Error("a supplied certificate needs the paths of its certificate and its key");
    setting.certificate = { kind: "supplied", certPath, keyPath };
  } else if (cert !== undefined && !(isPlainObject(cert) && cert.kind === "own")) {
    throw new Error('"certificate" must be { kind: "own" } or { kind: "supplied", certPath, keyPath }');
  }
  if (value.publicHost !== undefined && value.publicHost !== "") {
    const host = text(value.publicHost, 253);
    if (!host || !/^[A-Za-z0-9.-]+(?::\d{1,5})?$/.test(host)) throw new Error('"publicHost" must be a host name, with a port when devices reach it at another one (machine.tailnet.ts.net or machine.tailnet.ts.net:443)');
    setting.publicHost = host.toLowerCase();
  }
  return setting;
}

function readDevice(value: unknown): StoredDevice | undefined {
  if (!isPlainObject(value)) return undefined;
  const id = text(value.id, 32);
  const name = text(value.name, MAX_DEVICE_NAME);
  const keyHash = text(value.keyHash, 64);
  const pairedAt = time(value.pairedAt);
  if (!id || !name || !keyHash || !pairedAt) return undefined;
  const device: StoredDevice = { id, name, keyHash, pairedAt };
  const seen = time(value.lastSeenAt);
  if (seen) device.lastSeenAt = seen;
  const push = readPushSubscription(value.push);
  if (push) device.push = push;
  return device;
}

export interface Book {
  data: BookData;
  /** Writes the data as it is now. */
  save(): void;
  /** Why the file was set aside at start, if it was. */
  problem?: string;
}

export function openBook(dir: string, log: (line: string) => void = () => {}): Book {
  const file = join(dir, DEVICES_FILE);
  let data: BookData = { setting: { ...OFF_SETTING }, devices: [] };
  let problem: string | undefined;
  try {
    const raw = readPrivateFile(file, MAX_FILE_BYTES);
    if (raw !== undefined) {
      const parsed: unknown = JSON.parse(raw);
      if (!isPlainObject(parsed) || !Array.isArray(parsed.devices)) throw new Error("it is not a devices file");
      const devices = parsed.devices.map(readDevice).filter((d): d is StoredDevice => d !== undefined).slice(0, MAX_DEVICES);
      data = { setting: readSetting(parsed.setting), devices };
    }
  } catch (error) {
    problem = `the devices file could not be read (${(error as Error).message}); the device listener stays off and no device is paired`;
    log(`devices: ${problem}`);
    try {
      renameSync(file, `${file}.unreadable-${Date.now()}`);
    } catch {
      // Left where it is: the next save replaces it.
    }
  }
  return {
    data,
    problem,
    save() {
      replacePrivateFile(file, `${JSON.stringify({ version: 1, setting: data.setting, devices: data.devices }, null, 2)}\n`);
    },
  };
}
