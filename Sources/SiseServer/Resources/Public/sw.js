// Offline shell: the page's own files are cached so Sise opens without a network; live data
// always comes from the server (API and WebSocket are never cached).
const CACHE = "sise-shell-v40";
const SHELL = ["/", "/index.html", "/app.css", "/nav.css", "/forms.css", "/app.js", "/nav.js", "/picker.js", "/forms.js", "/i18n.js", "/info.js", "/compare.js", "/premium-matrix.js", "/premium-history.js", "/account.js", "/ranking.js", "/portfolio.js", "/alerts.js", "/push.js", "/exchanges.js", "/http.js", "/loading.js", "/toast.js", "/socket.js", "/board-rows.js", "/dom-text.js", "/view.js", "/premium-bar.js", "/wallet-marks.js", "/coin-wallets.js", "/executable-premium.js", "/notices-list.js", "/coin-events.js", "/change-alerts.js", "/matrix-executable.js",
               "/saved-board.js", "/status.js", "/routes.js", "/page-words.js", "/board-controls.js", "/coin-parts.js", "/coin-detail.js", "/depth.js", "/manifest.webmanifest", "/icon.svg", "/icon-192.png", "/icon-512.png",
               "/i18n/ko.json", "/i18n/en.json"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  // Social log-in hops through another site: the browser follows those redirects itself.
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/auth/") || url.pathname === "/ws" || url.pathname === "/img") return;
  // Network first, so a deployed update shows at once; the cache when offline.
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        return response;
      })
      .catch(() => caches.match(event.request).then((hit) => hit || caches.match("/index.html")))
  );
});

// An alert pushed while no page is open (Web Push, decrypted by the browser): shown as a
// notification in the words the server chose; a tap opens the coin's page.
self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch (_) { message = {}; }
  const title = typeof message.title === "string" && message.title ? message.title.slice(0, 120) : "Sise";
  const body = typeof message.body === "string" ? message.body.slice(0, 300) : "";
  // Only a page of this site: a path, never another origin.
  const url = typeof message.url === "string" && message.url.startsWith("/") && !message.url.startsWith("//") ? message.url : "/";
  event.waitUntil(self.registration.showNotification(title, { body, tag: typeof message.id === "string" ? message.id : undefined,
                                                              icon: "/icon-192.png", badge: "/icon-192.png", data: { url } }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((client) => new URL(client.url).origin === location.origin && "focus" in client);
    // A window of the site is brought forward and sent to the coin (a window this worker does
    // not control cannot be navigated: a new one opens instead).
    if (open) return open.focus().then((client) => (client || open).navigate(url)).catch(() => self.clients.openWindow(url));
    return self.clients.openWindow(url);
  }));
});
