// The app's settings as one value every view reads: notification pause (with its timer),
// start-at-login through the platform, the gateway's address, and where secrets live.
import type { HistorySize, Settings } from "../../shared/contract";
import { HandlerError } from "../rpc/envelope";
import { GATEWAY_TOKEN_SECRET, tokenPlace, type SecretStore } from "../secrets";
import { isOAuthSecret } from "../auth/keys";
import { isReachSecret } from "../reach/secret-names";

export interface Platform {
  /** Opens an http(s) url in the system browser; null when the page opens it itself (browser mode). */
  openExternal(url: string): Promise<void> | null;
  getStartAtLogin(): boolean;
  setStartAtLogin(enabled: boolean): void;
}

export class SettingsState {
  private pausedUntil: number | undefined;
  private pausedIndefinitely = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private secretNames: string[] = [];
  private gatewayUrl = "";
  private historySize: (() => HistorySize | undefined) | undefined;
  private readonly listeners = new Set<(settings: Settings) => void>();

  constructor(
    private readonly platform: Platform,
    private readonly secrets: SecretStore,
    private readonly hasToken: () => boolean,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Settings {
    const paused = this.pausedIndefinitely || (this.pausedUntil !== undefined && this.pausedUntil > this.now());
    let startAtLogin = false;
    try {
      startAtLogin = this.platform.getStartAtLogin();
    } catch {
      // A platform that cannot tell reads as off.
    }
    const history = this.historySize?.();
    return {
      notificationsPaused: paused,
      ...(paused && this.pausedUntil !== undefined ? { pausedUntil: this.pausedUntil } : {}),
      startAtLogin,
      gateway: { url: this.gatewayUrl, tokenSet: this.hasToken(), tokenKept: tokenPlace(this.secrets) },
      keychain: { available: this.secrets.available, detail: this.secrets.detail },
      secretNames: [...this.secretNames],
      ...(history ? { history } : {}),
    };
  }

  /** Pause for `minutes`, or until resumed when null. */
  pause(minutes: number | null): Settings {
    this.clearTimer();
    if (minutes === null) {
      this.pausedIndefinitely = true;
      this.pausedUntil = undefined;
    } else {
      this.pausedIndefinitely = false;
      this.pausedUntil = this.now() + minutes * 60_000;
      this.timer = setTimeout(() => this.resume(), minutes * 60_000);
      this.timer.unref?.();
    }
    return this.changed();
  }

  resume(): Settings {
    this.clearTimer();
    this.pausedIndefinitely = false;
    this.pausedUntil = undefined;
    return this.changed();
  }

  setStartAtLogin(enabled: boolean): Settings {
    try {
      this.platform.setStartAtLogin(enabled);
    } catch (error) {
      throw new HandlerError("unsupported", (error as Error).message);
    }
    return this.changed();
  }

  setGatewayUrl(url: string): void {
    this.gatewayUrl = url;
    this.changed();
  }

  /** Where Settings reads History's size and budget (read each time settings are read). */
  setHistorySize(read: () => HistorySize | undefined): void {
    this.historySize = read;
  }

  async refreshSecretNames(): Promise<Settings> {
    try {
      // OAuth tokens and registrations are the companion's own, not secrets the person set; the
      // channels' credentials are set in "When you are away".
      this.secretNames = (await this.secrets.list()).filter((name) => name !== GATEWAY_TOKEN_SECRET && !isOAuthSecret(name) && !isReachSecret(name));
    } catch {
      this.secretNames = [];
    }
    return this.changed();
  }

  on(listener: (settings: Settings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.clearTimer();
    this.listeners.clear();
  }

  /** Changed settings go to every view. */
  changed(): Settings {
    const settings = this.get();
    for (const listener of this.listeners) {
      try {
        listener(settings);
      } catch {
        // One broken view must not stop the others.
      }
    }
    return settings;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
