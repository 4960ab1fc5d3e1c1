// The page's one live connection (`/ws`). It opens at once, beside the words, the session and
// the route; what the server sends before the page knows its view waits for it (`routed`). A
// closed connection comes back with a growing, jittered delay; the backoff starts over only
// once the server has sent something (a socket opened and closed at once keeps backing off).
export function createSocket({ ready, message: deliver, closed }) {
  let socket = null;
  let connected = false;
  let lost = false;          // a connection closed (or never opened) since the page last had one
  let retryDelay = 500;
  let retryTimer = null;
  let routed = false;        // the page knows its view (words loaded, session and address read)
  const early = [];          // messages that came before it did

  const isOpen = () => Boolean(socket && socket.readyState === WebSocket.OPEN);

  function connect() {
    clearTimeout(retryTimer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const opened = new WebSocket(`${scheme}://${location.host}/ws`);
    socket = opened;
    opened.addEventListener("open", () => {
      connected = true;
      lost = false;
      if (routed) ready();
    });
    opened.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (_) { return; }
      if (!routed) { early.push(message); return; }
      if (message.type !== "error") retryDelay = 500;
      if (message.type === "error" && message.code === "too_many_connections" && message.retryAfter) {
        retryDelay = Math.max(retryDelay, message.retryAfter * 1000);
      }
      deliver(message);
    });
    opened.addEventListener("close", (event) => {
      if (socket !== opened) return;
      connected = false;
      lost = true;
      closed();
      // 1013 (try again later): the server is refusing connections from here for a while.
      if (event.code === 1013) retryDelay = Math.max(retryDelay, 5000);
      // Jitter, so pages dropped together do not come back together.
      const delay = retryDelay * (0.75 + Math.random() / 2);
      retryTimer = setTimeout(connect, delay);
      retryDelay = Math.min(retryDelay * 2, 15000);
    });
  }

  // A page the person leaves may be kept, frozen, for 뒤로 (the browser's back-forward cache).
  // Its connection would stay open on the server, unread: batches piling up for nobody, and a
  // server that cannot end until the frozen page answers its close. It is closed as the page is
  // put away — no loss to tell, no retry — and the page, shown again, connects at once: what it
  // shows until the server answers is marked as not live.
  addEventListener("pagehide", (event) => {
    if (!event.persisted || !socket) return;
    const old = socket;
    socket = null;
    connected = false;
    clearTimeout(retryTimer);
    old.close();
    closed();
  });
  addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    retryDelay = 500;
    connect();
  });

  return {
    connect,
    get connected() { return connected; },
    get lost() { return lost; },
    get open() { return isOpen(); },
    // Sent when the connection is open; false when it is not (the next `ready` asks again).
    send(message) {
      if (!isOpen()) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    // The person asked to try again now.
    retryNow() {
      retryDelay = 500;
      connect();
    },
    // Another owner (a log-in or log-out): a new connection, whose old one's close is no loss.
    renew() {
      const old = socket;
      socket = null;
      if (old) old.close();
      connect();
    },
    // The page knows its view: what waited is handled, and the view asked for if the connection is open.
    routed() {
      routed = true;
      for (const message of early.splice(0)) deliver(message);
      if (isOpen()) ready();
    },
  };
}
