// How live the board is, in words: the chip in the top bar (the exchange's feed state and its
// age) and the banner that says what was lost — this page's connection, or the exchange's.
import { exchangeName } from "./exchanges.js";

const $ = (selector, root = document) => root.querySelector(selector);

// `page`: { t, socket, view, rows } (read; the rows are marked stale with the feed).
export function createStatus(page) {
  let upstream = null;

  function chip(name) {
    const element = $("#status");
    element.dataset.state = name;
    element.textContent = page.t(name);
  }

  function banner() {
    const shown = $("#offline-banner");
    const message = $("#offline-message");
    // A page still opening its first connection has lost nothing: the chip says "connecting".
    if (!page.socket.connected && page.socket.lost) {
      message.textContent = page.t("lostServer");
      shown.hidden = false;
    } else if (upstream && upstream.state === "offline") {
      message.textContent = page.t("lostUpstream", { exchange: exchangeName(page.view.exchange) });
      shown.hidden = false;
    } else {
      shown.hidden = true;
    }
  }

  return {
    banner,
    // The server's status of the exchange on screen.
    apply(status) {
      const feed = status && status.exchanges && status.exchanges[page.view.exchange];
      if (!feed) return;
      upstream = feed;
      chip(feed.state);
      const age = feed.ageMs != null ? ` · ${page.t("ageSeconds", { seconds: Math.round(feed.ageMs / 1000) })}` : "";
      $("#status").title = (feed.message || page.t(feed.state)) + age;
      page.rows.markStale(Boolean(feed.stale));
      banner();
    },
    // This page's connection closed: the figures on screen stop being live and say so until
    // the server speaks again.
    lost() {
      banner();
      chip("offline");
      page.rows.markStale(true);
    },
    // The words again, in the page's language.
    reword() {
      chip($("#status").dataset.state);
      banner();
    },
  };
}
