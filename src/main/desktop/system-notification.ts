// The native side of notifications.ts: an Electron Notification behind NotificationLike, with its
// action buttons where the system shows them. Electron draws notification buttons on macOS and
// Windows only; on Linux (libnotify) there are none, so a note offers its undo through a click
// that opens the window instead (notifications.ts decides by `notificationActionsSupported`).
import { Notification } from "electron";
import type { NotificationContent, NotificationLike } from "./notifications";

const noNotification: NotificationLike = { on: () => undefined, show: () => undefined, close: () => undefined };

/** Whether this platform shows a notification's buttons. */
export function notificationActionsSupported(platform: NodeJS.Platform = process.platform): boolean {
  return platform === "darwin" || platform === "win32";
}

export function systemNotification(content: NotificationContent): NotificationLike {
  if (!Notification.isSupported()) return noNotification;
  const actions = content.actions?.length ? content.actions.map((text) => ({ type: "button" as const, text })) : undefined;
  const notification = new Notification({
    title: content.title,
    body: content.body,
    ...(content.silent ? { silent: true } : {}),
    ...(actions ? { actions } : {}),
  });
  return {
    on: (event, listener) => notification.on(event, listener),
    show: () => notification.show(),
    close: () => notification.close(),
    onAction: (listener) => {
      // Electron 3x+ passes { actionIndex } first; older versions passed the index itself second.
      notification.on("action", (details: unknown, index?: number) => {
        const fromDetails = (details as { actionIndex?: unknown } | null)?.actionIndex;
        listener(typeof fromDetails === "number" ? fromDetails : typeof index === "number" ? index : 0);
      });
    },
  };
}
