// Where the device listener's setting, the paired devices and the companion's own certificate
// live: the data folder, beside history and rules. TOOLNEXUS_DEVICES_DIR overrides it (tests).
import path from "node:path";
import { dataDir } from "../base/data-dir";

export function defaultDevicesDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TOOLNEXUS_DEVICES_DIR) return path.resolve(env.TOOLNEXUS_DEVICES_DIR);
  return path.join(dataDir(env, platform), "devices");
}

export const DEVICES_FILE = "devices.json";
export const OWN_CERT_FILE = "device-cert.pem";
export const OWN_KEY_FILE = "device-key.pem";
