// The service worker's part of Web Push, for the paired device's worker to load with
// `importScripts("./push.js")`. What arrives is main's PushMessage (src/main/reach/push.ts):
// "question" shows a notification tagged for that question, "close" withdraws it once it was
// answered or withdrawn elsewhere. A tap opens the question on this same origin, never another.
// It shows what it is sent and answers nothing.
(() => {
  /** A string of at most `max` characters, else undefined. */
  const text = (value, max) => (typeof value === "string" && value.length <= max ? value : undefined);

  /** The message, or undefined for anything else (no data, another shape). */
  function readPushMessage(data) {
    if (typeof data !== "object" || data === null) return undefined;
    const id = text(data.id, 1024);
    const tag = text(data.tag, 64);
    if (!id || !tag) return undefined;
    if (data.type === "close") return { type: "close", id, tag };
    const title = text(data.title, 200);
    const body = text(data.body, 1000);
    if (data.type !== "question" || title === undefined || body === undefined) return undefined;
    const url = text(data.url, 4096);
    return { type: "question", id, tag, title, body, url };
  }

  /** The question's own url when it is on this origin; else the page itself. */
  function sameOriginUrl(url) {
    const origin = self.location.origin;
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

  async function handle(message) {
    if (message.type === "close") {
      for (const shown of await self.registration.getNotifications({ tag: message.tag })) shown.close();
      return;
    }
    await self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      icon: "./icon-192.png",
      data: message.url ? { id: message.id, url: message.url } : { id: message.id },
    });
  }

  async function open(url) {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const same = windows.find((w) => w.url.startsWith(self.location.origin));
    if (!same) {
      await self.clients.openWindow(url);
      return;
    }
    await same.navigate(url).catch(() => undefined);
    await same.focus();
  }

  self.addEventListener("push", (event) => {
    let data;
    try {
      data = event.data ? event.data.json() : undefined;
    } catch {
      data = undefined;
    }
    const message = readPushMessage(data);
    if (message) event.waitUntil(handle(message));
  });

  self.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const data = event.notification.data;
    event.waitUntil(open(sameOriginUrl(data && data.url)));
  });
})();
