// The companion's settings as main last sent them, and the Settings view's actions on them: each
// asks main, shows the settings main answers with, and hands back the envelope.
import type { Envelope, Settings } from "../../shared/contract";
import type { Call } from "./api";

export class SettingsState {
  // Raw state: main sends whole snapshots and we replace them, so deep proxies would only cost.
  value = $state.raw<Settings | null>(null);
  /** `settings:changed` events seen, so a snapshot asked for before one loses to it. */
  #seen = 0;

  constructor(private readonly call: Call) {}

  /** Main's `settings:changed`. */
  changed(settings: Settings): void {
    this.#seen++;
    this.value = settings;
  }

  async load(): Promise<Envelope<Settings>> {
    const seen = this.#seen;
    const result = await this.call("settings:get");
    if (result.ok && this.#seen === seen) this.value = result.value;
    return result;
  }

  get notificationsPaused(): boolean {
    return this.value?.notificationsPaused ?? false;
  }

  /** Pauses notifications for `minutes`, or until resumed (null). */
  pause(minutes: number | null): Promise<Envelope<Settings>> {
    return this.#apply(this.call("settings:pauseNotifications", { minutes }));
  }

  resume(): Promise<Envelope<Settings>> {
    return this.#apply(this.call("settings:resumeNotifications"));
  }

  startAtLogin(enabled: boolean): Promise<Envelope<Settings>> {
    return this.#apply(this.call("settings:startAtLogin", { enabled }));
  }

  setSecret(name: string, value: string): Promise<Envelope<Settings>> {
    return this.#apply(this.call("secrets:set", { name, value }));
  }

  deleteSecret(name: string): Promise<Envelope<Settings>> {
    return this.#apply(this.call("secrets:delete", { name }));
  }

  /** The new gateway token, once: main never sends it again. */
  rotateToken(): Promise<Envelope<{ token: string }>> {
    return this.call("gateway:rotateToken");
  }

  async #apply(action: Promise<Envelope<Settings>>): Promise<Envelope<Settings>> {
    const result = await action;
    if (result.ok) this.value = result.value;
    return result;
  }
}
