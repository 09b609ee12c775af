// Pure decisions the hardened window and the IPC wrapper rely on; unit-tested without Electron.
import { APP_URL } from "./app-url";

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Same page means same origin and path; a query or hash change is the page's own business. */
function isSamePage(url: string, appUrl: string = APP_URL): boolean {
  const target = parse(url);
  const app = parse(appUrl);
  if (!target || !app) return false;
  // Custom schemes may report the opaque origin "null"; compare the parts instead.
  return target.protocol === app.protocol && target.host === app.host && target.pathname === app.pathname;
}

/** `will-navigate` / `will-redirect`: the window only ever shows our one page. */
export function isAllowedNavigation(url: string, appUrl: string = APP_URL): boolean {
  return isSamePage(url, appUrl);
}

/** What the IPC wrapper knows about who sent an invoke. */
export interface SenderInfo {
  /** `event.sender.id`, the WebContents that sent it. */
  webContentsId: number;
  /** `event.senderFrame?.url`; null when the frame is gone (navigated or destroyed). */
  frameUrl: string | null;
  /** Whether the sending frame is its page's top frame (not an iframe). */
  isMainFrame: boolean;
}

/**
 * An invoke is served only when it comes from our window's top frame while it shows our page.
 * Anything else — another WebContents, an iframe, a frame that navigated away — is refused.
 */
export function isTrustedSender(sender: SenderInfo, ours: { webContentsId: number | undefined; appUrl?: string }): boolean {
  if (ours.webContentsId === undefined || sender.webContentsId !== ours.webContentsId) return false;
  if (!sender.isMainFrame || sender.frameUrl === null) return false;
  return isSamePage(sender.frameUrl, ours.appUrl ?? APP_URL);
}

/**
 * `shell.openExternal` is only ever given a parseable http(s) URL with a host and no embedded
 * credentials (`https://github.com@evil.example` reads as github but goes elsewhere). Anything
 * else — file:, javascript:, custom protocol handlers, smb: — could run code or leak hashes.
 */
export function canOpenExternal(url: unknown): url is string {
  if (typeof url !== "string" || url.length === 0 || url.length > 8192) return false;
  const parsed = parse(url);
  if (!parsed) return false;
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return false;
  if (parsed.hostname === "") return false;
  if (parsed.username !== "" || parsed.password !== "") return false;
  return true;
}
