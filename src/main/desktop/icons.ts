// Where the tray and window icons live: out/assets/ next to the bundle (scripts/build-electron.mjs
// copies them there, so the packaged app needs only out/**).
import path from "node:path";
import type { TrayIconVariant } from "./tray";

export function trayIconFile(variant: TrayIconVariant, attention: boolean): string {
  // macOS picks up "Template" in the name and recolours the image for the menu bar itself.
  if (variant === "template") return attention ? "trayAttentionTemplate.png" : "trayTemplate.png";
  return `tray-${variant}${attention ? "-attention" : ""}.png`;
}

export function trayIconPath(assetsDir: string, variant: TrayIconVariant, attention: boolean): string {
  return path.join(assetsDir, trayIconFile(variant, attention));
}
