// The paired device's service worker: it keeps the page's shell (the HTML, scripts, styles and
// icons) so the installed app opens at once, and it never answers anything else. Questions,
// answers and History come only from the companion, live, over the WebSocket and /v1/: a
// request there is not intercepted at all, so nothing stale or cached can ever stand for an
// answer. Pushes (a question waiting, or its notification withdrawn once answered) are push.js's.
importScripts("./push.js");

const CACHE = "tnc-shell-v1";
const SHELL = ["./", "./index.html", "./manifest.json", "./icon-192.png", "./icon-512.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** The page's own files: same origin, GET, and neither the API nor the socket. */
function isShell(request) {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return false;
  return !url.pathname.startsWith("/v1/") && url.pathname !== "/ws" && url.pathname !== "/sw.js" && url.pathname !== "/push.js";
}

self.addEventListener("fetch", (event) => {
  if (!isShell(event.request)) return;
  // Network first: a companion that was updated serves its new page; offline, the kept one.
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          void caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request).then((hit) => hit ?? caches.match("./index.html")).then((hit) => hit ?? Response.error())),
  );
});
