// Signal-style tray service: the native Tray and Menu come in through factories, so the logic
// (tooltip, badge, icon choice, menu) is tested without a display.
import type { MenuItemConstructorOptions } from "electron";
import { trayMenuTemplate, trayTooltip, type TrayActions, type TrayState } from "./tray-menu";

/** The slice of Electron's Tray the service uses. */
export interface TrayLike {
  setToolTip(text: string): void;
  setTitle(title: string): void;
  setImage(image: string): void;
  setContextMenu(menu: unknown): void;
  on(event: "click", listener: () => void): unknown;
  destroy(): void;
}

export type TrayIconVariant = "light" | "dark" | "template";

export interface TrayServiceOptions {
  createTray(iconPath: string): TrayLike;
  buildMenu(template: MenuItemConstructorOptions[]): unknown;
  /** Path of the tray icon for a theme variant, with or without the "questions waiting" dot. */
  iconPath(variant: TrayIconVariant, attention: boolean): string;
  /** macOS draws template images itself in both themes; elsewhere we follow the system theme. */
  useTemplateIcon: boolean;
  isDarkTheme(): boolean;
  /** Dock / launcher badge, where the platform has one (macOS, Unity launchers). */
  setBadgeCount?(count: number): void;
  actions: TrayActions;
  now?: () => number;
}

export class TrayService {
  private tray: TrayLike | null = null;
  private state: TrayState = {
    pending: [],
    servers: [],
    settings: { notificationsPaused: false, startAtLogin: false },
  };

  constructor(private readonly options: TrayServiceOptions) {}

  start(initial?: Partial<TrayState>): void {
    if (this.tray) return;
    if (initial) this.state = { ...this.state, ...initial };
    this.tray = this.options.createTray(this.currentIcon());
    // Left click opens the window where the platform reports it (Windows, most Linux trays).
    this.tray.on("click", () => this.options.actions.openWindow());
    this.render();
  }

  update(patch: Partial<TrayState>): void {
    this.state = { ...this.state, ...patch };
    this.render();
  }

  /** The system theme changed. */
  themeChanged(): void {
    this.tray?.setImage(this.currentIcon());
  }

  currentIcon(): string {
    const variant: TrayIconVariant = this.options.useTemplateIcon ? "template" : this.options.isDarkTheme() ? "dark" : "light";
    return this.options.iconPath(variant, this.state.pending.length > 0);
  }

  menuTemplate(): MenuItemConstructorOptions[] {
    return trayMenuTemplate(this.state, this.options.actions, (this.options.now ?? Date.now)());
  }

  destroy(): void {
    this.tray?.destroy();
    this.tray = null;
  }

  private render(): void {
    const tray = this.tray;
    if (!tray) return;
    const count = this.state.pending.length;
    const now = (this.options.now ?? Date.now)();
    const { notificationsPaused, pausedUntil } = this.state.settings;
    const paused = notificationsPaused && (pausedUntil === undefined || pausedUntil > now);
    tray.setToolTip(trayTooltip(count, paused));
    tray.setTitle(count > 0 ? String(count) : "");
    tray.setImage(this.currentIcon());
    this.options.setBadgeCount?.(count);
    tray.setContextMenu(this.options.buildMenu(this.menuTemplate()));
  }
}
