// The computer's view of answering from another device: the device listener's setting, the
// pairing link in effect, the devices asking to pair and the paired ones, as main last sent them.
import type { Envelope } from "../../shared/contract";
import type { DeviceListenerSetting, DevicesState } from "../../shared/devices";
import type { Call } from "./api";

export class DevicesStore {
  value = $state.raw<DevicesState | null>(null);
  error = $state("");
  /** False when this run of the companion keeps no devices (then Settings shows no section). */
  available = $state(true);
  #seen = 0;

  constructor(private readonly call: Call) {}

  /** Main's `devices:changed`. */
  changed(state: DevicesState): void {
    this.#seen++;
    this.value = state;
  }

  async load(): Promise<void> {
    const seen = this.#seen;
    const result = await this.call("devices:get");
    if (result.ok && this.#seen === seen) this.value = result.value;
    if (!result.ok && result.error.code === "unavailable") {
      this.available = false;
      return;
    }
    this.error = result.ok ? "" : result.error.message;
  }

  configure(setting: DeviceListenerSetting): Promise<void> {
    return this.#apply(this.call("devices:configure", setting));
  }

  startPairing(): Promise<void> {
    return this.#apply(this.call("devices:startPairing"));
  }

  confirm(id: string, ok: boolean): Promise<void> {
    return this.#apply(this.call("devices:confirm", { id, ok }));
  }

  revoke(id: string): Promise<void> {
    return this.#apply(this.call("devices:revoke", { id }));
  }

  async #apply(action: Promise<Envelope<DevicesState>>): Promise<void> {
    const result = await action;
    if (result.ok) {
      this.#seen++;
      this.value = result.value;
      this.error = "";
    } else this.error = result.error.message;
  }
}
