// Alerts with the app closed (Web Push): this device's switch and the owner's devices. Turning it
// on asks for notifications, subscribes the service worker with the server's VAPID key
// (`GET /api/push/key`) and hands the subscription to the server, which encrypts each firing to
// it; turning it off forgets it on both sides. The service worker (sw.js) shows what arrives.
const $ = (selector, root = document) => root.querySelector(selector);
const STORED = "sise.pushSubscription";
// A browser whose push service cannot be reached may never settle `subscribe`.
const PATIENCE_MS = 20000;

function keyBytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - base64.length % 4) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

export function setupPush({ t, state, call, toast }) {
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  const toggle = $("#push-toggle");
  const note = $("#push-note");
  let busy = false;

  function say(text) {
    note.textContent = text || "";
    note.hidden = !text;
  }

  function showState(on) {
    toggle.setAttribute("aria-pressed", String(on));
    toggle.dataset.label = on ? "pushDisable" : "pushEnable";
    toggle.textContent = t(toggle.dataset.label);
  }

  async function loadDevices() {
    try {
      const body = await call("GET", "/api/push/subscriptions");
      const list = $("#push-devices");
      const mine = localStorage.getItem(STORED);
      list.replaceChildren(...body.subscriptions.map((subscription) => {
        const li = document.createElement("li");
        li.dataset.subscriptionId = subscription.id;
        if (subscription.id === mine) li.dataset.thisDevice = "true";
        const span = document.createElement("span");
        span.textContent = `${subscription.host} · ${new Date(subscription.createdAt).toLocaleDateString(state.lang === "en" ? "en-GB" : "ko-KR")}`;
        const remove = document.createElement("button");
        remove.type = "button";
        remove.dataset.action = "delete-subscription";
        remove.textContent = t("delete");
        li.append(span, remove);
        return li;
      }));
      showState(Boolean(mine) && body.subscriptions.some((subscription) => subscription.id === mine));
    } catch (_) { /* keeps what it had */ }
  }

  async function turnOn() {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") return say(t("pushDenied"));
    try {
      const registration = await navigator.serviceWorker.ready;
      const { publicKey } = await call("GET", "/api/push/key");
      toggle.setAttribute("aria-busy", "true");
      const subscription = await Promise.race([
        registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }),
        new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), PATIENCE_MS)),
      ]);
      const json = subscription.toJSON();
      const kept = await call("POST", "/api/push/subscriptions", JSON.stringify({ endpoint: json.endpoint, keys: json.keys, lang: state.lang }));
      localStorage.setItem(STORED, kept.id);
      say("");
    } catch (error) {
      say(t("pushFailed", { reason: (error && error.message) || String(error) }));
    } finally {
      toggle.removeAttribute("aria-busy");
    }
  }

  async function turnOff() {
    const id = localStorage.getItem(STORED);
    localStorage.removeItem(STORED);
    if (id) await call("DELETE", `/api/push/subscriptions/${encodeURIComponent(id)}`).catch(() => {});
    try {
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.getSubscription();
      if (subscription) await subscription.unsubscribe();
    } catch (_) { /* forgotten on the server already */ }
  }

  toggle.addEventListener("click", async () => {
    if (busy) return;
    if (!supported) return say(t("pushUnsupported"));
    busy = true;
    try {
      if (toggle.getAttribute("aria-pressed") === "true") await turnOff(); else await turnOn();
    } finally {
      busy = false;
      loadDevices();
    }
  });

  $("#push-devices").addEventListener("click", async (event) => {
    const target = event.target.closest("[data-action=delete-subscription]");
    if (!target) return;
    const li = target.closest("li");
    try {
      if (li.dataset.thisDevice === "true") await turnOff();
      else await call("DELETE", `/api/push/subscriptions/${encodeURIComponent(li.dataset.subscriptionId)}`);
      loadDevices();
    } catch (error) { toast(error.message); }
  });

  return {
    start() {
      if (!supported) say(t("pushUnsupported"));
      loadDevices();
    },
    applyLanguage() { showState(toggle.getAttribute("aria-pressed") === "true"); },
  };
}
