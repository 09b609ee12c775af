// The service worker's part of Web Push (the worker itself is the device page's: it imports this
// and calls installPushHandler(self)). What arrives is reach/push.ts's PushMessage: "question"
// shows a notification tagged for that question, "close" withdraws it (answered or withdrawn
// elsewhere); a tap opens the question on this same page, never another origin. The worker shows
// what it is sent and answers nothing.

/** The parts of the service worker's global scope this uses (the DOM lib has no worker types here). */
interface ShownNotification {
  tag: string;
  data: unknown;
  close(): void;
}
interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}
interface ExtendableEventLike {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEventLike extends ExtendableEventLike {
  data: { json(): unknown } | null;
}
interface NotificationClickLike extends ExtendableEventLike {
  notification: ShownNotification;
}
export interface PushScope {
  location: { origin: string };
  registration: {
    showNotification(title: string, options: { body: string; tag: string; data: unknown; icon?: string }): Promise<void>;
    getNotifications(filter?: { tag?: string }): Promise<ShownNotification[]>;
  };
  clients: {
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  addEventListener(type: "push", listener: (event: PushEventLike) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationClickLike) => void): void;
}

type PushMessage = { type: "question"; id: string; tag: string; title: string; body: string; url?: string } | { type: "close"; id: string; tag: string };

const text = (value: unknown, max: number): string | undefined => (typeof value === "string" && value.length <= max ? value : undefined);

/** The message, or undefined for anything else (a push with no data, one of another shape). */
export function readPushMessage(data: unknown): PushMessage | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const m = data as Record<string, unknown>;
  const id = text(m.id, 1024);
  const tag = text(m.tag, 64);
  if (!id || !tag) return undefined;
  if (m.type === "close") return { type: "close", id, tag };
  const title = text(m.title, 200);
  const body = text(m.body, 1000);
  if (m.type !== "question" || title === undefined || body === undefined) return undefined;
  const url = text(m.url, 4096);
  return { type: "question", id, tag, title, body, ...(url ? { url } : {}) };
}

/** The url to open: the question's own, when it is on this page's origin; else the page itself. */
export function sameOriginUrl(origin: string, url: unknown): string {
  if (typeof url === "string") {
    try {
      const parsed = new URL(url, origin);
      if (parsed.origin === origin) return parsed.href;
    } catch {
      // Not a URL: the page itself.
    }
  }
  return `${origin}/`;
}

async function handle(scope: PushScope, message: PushMessage): Promise<void> {
  if (message.type === "close") {
    for (const shown of await scope.registration.getNotifications({ tag: message.tag })) shown.close();
    return;
  }
  await scope.registration.showNotification(message.title, { body: message.body, tag: message.tag, data: { url: message.url, id: message.id } });
}

async function open(scope: PushScope, url: string): Promise<void> {
  const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = windows.find((w) => w.url.startsWith(scope.location.origin));
  if (same) {
    await same.navigate(url).catch(() => undefined);
    await same.focus();
    return;
  }
  await scope.clients.openWindow(url);
}

export function installPushHandler(scope: PushScope): void {
  scope.addEventListener("push", (event) => {
    let data: unknown;
    try {
      data = event.data?.json();
    } catch {
      data = undefined;
    }
    const message = readPushMessage(data);
    if (message) event.waitUntil(handle(scope, message));
  });
  scope.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const url = sameOriginUrl(scope.location.origin, (event.notification.data as { url?: unknown } | null)?.url);
    event.waitUntil(open(scope, url));
  });
}
