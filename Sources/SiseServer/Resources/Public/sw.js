// Offline shell: the page's own files are cached so Sise opens without a network; live data
// always comes from the server (API and WebSocket are never cached). The server writes the two
// lines below (StaticAssets): the page's version — a hash of every file, so any deployed change
// is a new worker, which caches the new shell as it installs — and the files the page loads.
const VERSION = "unversioned";
const SHELL = ["/"];
const CACHE = "sise-shell-" + VERSION;

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
  // The network first, so a deployed update shows at once; the shell when offline (every view's
  // address is the page itself). The cache is written when the worker installs, not on every
  // request: the shell of one version never changes.
  event.respondWith(
    fetch(event.request).catch(() => caches.match(event.request)
      .then((hit) => hit || (event.request.mode === "navigate" ? caches.match("/") : Response.error())))
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
