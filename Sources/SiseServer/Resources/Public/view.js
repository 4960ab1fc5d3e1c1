// The board's view — the tab, the exchange, the quote, the sort and the search — owned here and
// read by the rest of the page. Sent to the server over the page's socket (`view`, and `window`
// as the list scrolls); the server answers with the rows, their order and the sort cycle.
import { EXCHANGES, DEFAULT_EXCHANGE } from "./exchanges.js";
import { loading } from "./loading.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));
const SORTS = ["name", "price", "change", "value", "premium"];

// `page`: { t, lang(), socket, rows, remember(push), changed() } — `changed` after the exchange,
// the quote or the 김프 venue moved (the premium bar follows them).
export function createView(page) {
  const stored = localStorage.getItem("sise.exchange");
  let tab = "exchange";
  let exchange = EXCHANGES.includes(stored) ? stored : DEFAULT_EXCHANGE;
  let quote = "KRW";
  let sort = "value";
  let order = "none";
  let q = "";
  // The 김프 column's global venue (Binance unless the person chose another; kept on the device).
  const venues = $$("#premium-venue option").map((option) => option.value);
  let venue = venues.includes(localStorage.getItem("sise.premiumVenue")) ? localStorage.getItem("sise.premiumVenue") : "binance";
  let nextSorts = null;         // column → the sort after tapping it, as the server decided
  let rowsOfFavorites = false;  // the rows on screen are the 관심 tab's
  let shown = null;             // the window of ranks asked for
  let windowTimer = null;

  function send() {
    page.remember(false);
    // A BTC or USDT board has no 김프 to show: the column gives its room back (unless switched on).
    $("#board").dataset.boardQuote = quote;
    // A phone's short 거래대금 of a BTC or USDT board drops the unit from each cell: the head says it.
    $("#value-unit").textContent = quote === "KRW" ? "" : quote;
    rowsOfFavorites = tab === "favorites";
    if (page.rows.size === 0) loading($("#rows"), page.t("loading"));
    if (!page.socket.open) return;
    shown = visibleWindow();
    page.rows.setWindow(shown);
    page.socket.send({ type: "view", exchange, quote, sort, order, q, venue, favoritesOnly: tab === "favorites", lang: page.lang(), window: shown });
  }

  // The ranks on screen and a margin of a screen's worth around them: the server sends full rows
  // only for these (and the order of all), so a phone does not download what it cannot see.
  function visibleWindow() {
    const body = $("#rows");
    const first = body.querySelector(":scope > tr[data-market]");
    const height = (first && first.getBoundingClientRect().height) || 44;
    const top = body.getBoundingClientRect().top;
    const screen = Math.ceil(window.innerHeight / height);
    const start = Math.max(0, Math.floor(-top / height));
    return { from: Math.max(0, start - screen), to: start + 2 * screen };
  }

  function followScroll() {
    if (windowTimer) return;
    windowTimer = setTimeout(() => {
      windowTimer = null;
      if (!page.socket.open || !shown) return;
      const next = visibleWindow();
      if (Math.abs(next.from - shown.from) < 5 && Math.abs(next.to - shown.to) < 5) return;
      shown = next;
      page.rows.setWindow(shown);
      page.socket.send({ type: "window", from: next.from, to: next.to });
    }, 150);
  }
  window.addEventListener("scroll", followScroll, { passive: true });
  window.addEventListener("resize", followScroll, { passive: true });

  function pressQuote() {
    for (const button of $$("[data-quote]")) button.setAttribute("aria-pressed", String(button.dataset.quote === quote));
  }

  function sortHeaders() {
    for (const button of $$("[data-sort]")) {
      const active = button.dataset.sort === sort && order !== "none";
      button.setAttribute("aria-sort", active ? (order === "asc" ? "ascending" : "descending") : "none");
    }
  }

  return {
    get tab() { return tab; },
    get exchange() { return exchange; },
    get quote() { return quote; },
    get q() { return q; },
    get venue() { return venue; },
    // The address's query for the board's view (`exchange`, `quote`, `sort`+`order`, `q`).
    query() {
      const query = new URLSearchParams();
      if (exchange !== DEFAULT_EXCHANGE) query.set("exchange", exchange);
      if (quote !== "KRW") query.set("quote", quote);
      if (order !== "none") { query.set("sort", sort); query.set("order", order); }
      if (q) query.set("q", q);
      return query;
    },
    // The rows on screen belong to another tab's set (거래소 ↔ 관심).
    rowsAreOtherTabs(next) { return (next === "favorites") !== rowsOfFavorites; },
    send,
    sortHeaders,
    setTab(next) { tab = next; },
    selectExchange(next) {
      exchange = next;
      localStorage.setItem("sise.exchange", next);
      for (const button of $$("[data-exchange]")) button.setAttribute("aria-pressed", String(button.dataset.exchange === next));
      send();
      page.changed();
    },
    selectVenue(next) {
      if (!venues.includes(next)) return;
      venue = next;
      if (next === "binance") localStorage.removeItem("sise.premiumVenue"); else localStorage.setItem("sise.premiumVenue", next);
      send();
      page.changed();
    },
    selectQuote(next) {
      quote = next;
      pressQuote();
      send();
      page.changed();
    },
    search(text) {
      q = text;
      send();
    },
    // The sort cycle is the server's: each snapshot says what tapping every column leads to.
    tapSort(key) {
      const next = nextSorts && nextSorts[key];
      if (!next) return;
      sort = next.sort;
      order = next.order;
      sortHeaders();
      send();
    },
    // A snapshot's view: the sort cycle, and the quotes the exchange has (a quote it lacks falls
    // back to KRW). False when it answers a view already left.
    answered(view) {
      nextSorts = view.next;
      if (view.exchange !== exchange) return false;
      if (!view.quotes) return true;
      for (const button of $$("[data-quote]")) button.hidden = !view.quotes.includes(button.dataset.quote);
      if (!view.quotes.includes(quote)) {
        quote = "KRW";
        pressQuote();
        send();
      }
      return true;
    },
    // What a board address says (`first`: one without `exchange` keeps the device's choice).
    fromAddress(query, first, quotes) {
      const asked = query.get("exchange") || (first ? exchange : DEFAULT_EXCHANGE);
      if (EXCHANGES.includes(asked) && asked !== exchange) this.selectExchange(asked);
      quote = quotes.includes(query.get("quote")) ? query.get("quote") : quotes[0];
      pressQuote();
      const askedOrder = query.get("order");
      const sorted = SORTS.includes(query.get("sort")) && (askedOrder === "asc" || askedOrder === "desc");
      sort = sorted ? query.get("sort") : "value";
      order = sorted ? askedOrder : "none";
      sortHeaders();
      q = (query.get("q") || "").slice(0, 64);
      $("#search").value = q;
    },
  };
}
