// 호가 and 체결 of the market on the coin page (markets only), as the server decided them.
import { get } from "./http.js";
import { marketOf, text } from "./coin-parts.js";

const $ = (selector, root = document) => root.querySelector(selector);

// `page`: { t, state (read: connected, lang), send(message) }.
export function setupDepth({ t, state, send }) {
  // The book and the tape of the market on screen, pushed over the page's socket while the page
  // is visible (`{"type":"depth",…}`: the server follows each market once for every page that
  // shows it); read over REST once a second only while the socket is down.
  const depth = { timer: null, watching: null, market: null, last: null };

  function shownMarket() {
    const detail = $("#coin-detail");
    return detail.hidden ? null : marketOf(detail.dataset.coinId || "");
  }

  // Tells the server what this page shows now: on opening and leaving a market, on the page
  // being hidden or shown, and on a new socket.
  function syncDepth() {
    const market = document.visibilityState === "visible" ? shownMarket() : null;
    const key = market ? `${market.exchange}:${market.code}` : null;
    if (key !== depth.market) { depth.market = key; depth.last = null; }
    if (!shownMarket()) $("#market-depth").hidden = true;
    if (state.connected) {
      clearTimeout(depth.timer);
      depth.timer = null;
      if (key !== depth.watching) {
        send(market ? { type: "depth", exchange: market.exchange, market: market.code } : { type: "depth" });
        depth.watching = key;
      }
    } else {
      depth.watching = null;
      if (market && !depth.timer) scheduleDepth(0);
    }
  }

  // The socket closed (REST takes over) or opened again (the server is told anew).
  function socketChanged() {
    depth.watching = null;
    syncDepth();
  }

  // A pushed book or tape: shown when it is the market on screen.
  function pushed(message) {
    const market = shownMarket();
    if (!market || market.exchange !== message.exchange || market.code !== message.market) return;
    if (message.type === "trades") {
      depth.last = message.trades[0] || null;
      renderTape(message);
    } else {
      renderBook(message, depth.last);
    }
    $("#market-depth").hidden = false;
  }

  function scheduleDepth(delay) {
    clearTimeout(depth.timer);
    depth.timer = setTimeout(loadDepth, delay);
  }

  function stopDepth() {
    clearTimeout(depth.timer);
    depth.timer = null;
    $("#market-depth").hidden = true;
    if (depth.watching) send({ type: "depth" });
    depth.watching = null;
    depth.market = null;
  }

  async function loadDepth() {
    depth.timer = null;
    const market = shownMarket();
    if (!market || state.connected) return syncDepth();
    if (document.visibilityState !== "visible") return scheduleDepth(1000);
    const query = `exchange=${encodeURIComponent(market.exchange)}&lang=${state.lang}`;
    const code = encodeURIComponent(market.code);
    try {
      const [book, tape] = await Promise.all([get(`/api/orderbook/${code}?${query}&levels=10`).catch(() => null),
                                              get(`/api/tape/${code}?${query}&count=30`).catch(() => null)]);
      // Still the same market on screen (the user may have moved on while these were in flight).
      if (shownMarket()?.code === market.code && !state.connected) {
        if (book) renderBook(book, tape && tape.trades[0]);
        if (tape) renderTape(tape);
        $("#market-depth").hidden = !book && !tape;
      }
    } catch (_) { /* the last book stays; the next read tries again */ }
    scheduleDepth(1000);
  }

  // Asks above (the best at the bottom, blue), bids below (red), each size with a bar; the row
  // at the last trade's price marked.
  function renderBook(book, last) {
    const body = $("#book-ladder tbody");
    const levels = [...book.asks.slice().reverse().map((level) => ["ask", level]), ...book.bids.map((level) => ["bid", level])];
    const largest = Math.max(...levels.map(([, level]) => Number(level.size)), 0) || 1;
    const rows = levels.map(([side, level]) => {
      const tr = document.createElement("tr");
      tr.className = side;
      tr.dataset.price = level.price;
      if (last && last.price === level.price) tr.classList.add("current");
      const size = text("td", level.display.size, "size");
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = `${Math.round(Number(level.size) / largest * 100)}%`;
      size.prepend(bar);
      const price = text("td", level.display.price, "price");
      tr.append(side === "ask" ? size : text("td", ""), price, side === "bid" ? size : text("td", ""));
      return tr;
    });
    body.replaceChildren(...rows);
    // Heads over the ladder and the totals and spread under it, in the page's words.
    const table = $("#book-ladder");
    const head = table.tHead || table.createTHead();
    const heads = [t("bookAskSize"), t("bookPrice"), t("bookBidSize")].map((words) => {
      const th = text("th", words);
      th.scope = "col";
      return th;
    });
    const headRow = document.createElement("tr");
    headRow.append(...heads);
    head.replaceChildren(headRow);
    const foot = table.tFoot || table.createTFoot();
    const totals = document.createElement("tr");
    totals.dataset.bookTotals = "";
    const spread = book.display.spread ? t("bookSpread", { spread: book.display.spread, rate: book.display.spreadRate }) : t("bookTotals");
    totals.append(text("td", book.display.totalAskSize, "size"), text("td", spread, "spread"), text("td", book.display.totalBidSize, "size"));
    foot.replaceChildren(totals);
    // How fresh the book is: a stream gone silent (read over REST) or nothing fresh at all.
    const chip = $("#book-state");
    const freshness = book.state || "live";
    $("#book-ladder").dataset.state = freshness;
    chip.dataset.state = freshness;
    chip.hidden = freshness === "live";
    chip.textContent = freshness === "delayed" ? t("bookDelayed") : freshness === "stale" ? t("bookStale", { at: book.display.time }) : "";
  }

  // The tape as the server decided it: the trades newest first, 체결강도 written out.
  function renderTape(tape) {
    const rows = tape.trades.map((trade) => {
      const tr = document.createElement("tr");
      tr.className = trade.side;
      tr.append(text("td", trade.display.time), text("td", trade.display.price, "price"), text("td", trade.display.size, "size"));
      return tr;
    });
    $("#tape-rows tbody").replaceChildren(...rows);
    const strength = tape.display.strength;
    $("#tape-strength").textContent = strength ? t("tradeStrength", { percent: strength }) : "";
  }

  document.addEventListener("visibilitychange", syncDepth);

  return { syncDepth, stopDepth, socketChanged, pushed };
}
