// Browser mode's stand-in for the tray's system notifications: one Web Notification per new
// question, only when the person allowed it and is not already looking at the page.
import { isSignIn } from "../../shared/words";
import type { PendingEntry } from "../../shared/types";
import { askerText } from "./format";

export function notificationsSupported(): boolean {
  return typeof Notification !== "undefined";
}

export function browserNotifier(onOpen: (id: string) => void): (entry: PendingEntry) => void {
  return (entry) => {
    if (!notificationsSupported() || Notification.permission !== "granted") return;
    if (document.visibilityState === "visible" && document.hasFocus()) return;
    const notification = new Notification(`Question from ${askerText(entry.source)}`, {
      body: entry.request.prompt || (isSignIn(entry.request) ? "Asks you to sign in" : entry.request.kind === "authorization" ? "Asks you to open a link" : "Asks for input"),
      tag: entry.request.id,
    });
    notification.onclick = () => {
      window.focus();
      onOpen(entry.request.id);
      notification.close();
    };
  };
}
