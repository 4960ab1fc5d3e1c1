// Sise web board: renders what the server decided (order, formats); never talks to an exchange.
import { loadStrings, text, pickLanguage } from "./i18n.js";
import { setupInfo } from "./info.js";
import { setupCompare } from "./compare.js";
import { setupAccount } from "./account.js";
import { setupRanking } from "./ranking.js";
import { setupPortfolio } from "./portfolio.js";
import { setupAlerts } from "./alerts.js";
import { EXCHANGES, DEFAULT_EXCHANGE, QUOTES, favoriteKey as keyOf, exchangeOf, exchangeName, rowName } from "./exchanges.js";
import { request, get } from "./http.js";
import { setupNav } from "./nav.js";
import { setupFileFields, applyFileLanguage } from "./forms.js";
import { loading, loaded } from "./loading.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

const state = {
  lang: pickLanguage(),
  tab: "exchange",
  exchange: EXCHANGES.includes(localStorage.getItem("sise.exchange")) ? localStorage.getItem("sise.exchange") : DEFAULT_EXCHANGE,
  quote: "KRW",
  sort: "value",
  order: "none",
  q: "",
  favorites: new Set(),
  rows: new Map(),      // market → row element
  data: new Map(),      // market → last row data
  rowOrder: [],         // market codes in the order the server decided
  socket: null,
  connected: false,
  lost: false,          // a connection closed (or never opened) since the page last had one
  retryDelay: 500,
  retryTimer: null,
  upstream: null,
  nextSort: null,       // column → the sort after tapping it, as the server decided
  routed: false,        // the page knows its view (words loaded, session and address read)
  early: [],            // socket messages that came before it did
  rowsOfFavorites: false, // the rows on screen are the 관심 tab's
};

const t = (key, values) => text(state.lang, key, values);

// ---------- HTTP ----------

const api = (method, path) => request(method, path);

// A change with a body (portfolio, alerts): the API's error message when it refuses.
const call = (method, path, body, type = "application/json") => request(method, path, { body, type });

async function loadFavorites() {
  try {
    const body = await api("GET", "/api/favorites");
    state.favorites = new Set(body.favorites);
    refreshStars();
  } catch (_) { /* the socket's status frames tell the user about trouble */ }
}

// ---------- WebSocket ----------

function connect() {
  clearTimeout(state.retryTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    state.connected = true;
    state.lost = false;
    if (state.routed) socketReady();
  });
  socket.addEventListener("message", (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (_) { return; }
    // The socket opens while the page still loads its words and decides its view: what comes
    // before that waits for it.
    if (!state.routed) { state.early.push(message); return; }
    // The backoff starts over only once the server has sent something: a socket that opens
    // and is closed at once (the server refusing it) keeps backing off.
    if (message.type !== "error") state.retryDelay = 500;
    if (message.type === "error" && message.code === "too_many_connections" && message.retryAfter) {
      state.retryDelay = Math.max(state.retryDelay, message.retryAfter * 1000);
    }
    handle(message);
  });
  socket.addEventListener("close", (event) => {
    if (state.socket !== socket) return;
    state.connected = false;
    state.lost = true;
    info.socketChanged();
    updateBanner();
    setChip("offline");
    // The figures on screen stop being live: they say so until the server speaks again.
    for (const tr of state.rows.values()) tr.classList.add("stale");
    // 1013 (try again later): the server is refusing connections from here for a while.
    if (event.code === 1013) state.retryDelay = Math.max(state.retryDelay, 5000);
    // Jitter, so pages dropped together do not come back together.
    const delay = state.retryDelay * (0.75 + Math.random() / 2);
    state.retryTimer = setTimeout(connect, delay);
    state.retryDelay = Math.min(state.retryDelay * 2, 15000);
  });
}

// The socket is open and the page knows what it shows: ask for that view.
function socketReady() {
  sendView();
  portfolio.resume();
  info.socketChanged();
  updateBanner();
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

function sendView() {
  remember(false);
  // A BTC or USDT board has no 김프 to show: the column gives its room back (unless switched on).
  $("#board").dataset.boardQuote = state.quote;
  state.rowsOfFavorites = state.tab === "favorites";
  if (state.rows.size === 0) loading($("#rows"), t("loading"));
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) return;
  state.window = visibleWindow();
  state.socket.send(JSON.stringify({
    type: "view", exchange: state.exchange, quote: state.quote, sort: state.sort, order: state.order, q: state.q,
    favoritesOnly: state.tab === "favorites", lang: state.lang, window: state.window,
  }));
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

let windowTimer = null;
function followScroll() {
  if (windowTimer) return;
  windowTimer = setTimeout(() => {
    windowTimer = null;
    if (!state.socket || state.socket.readyState !== WebSocket.OPEN || !state.window) return;
    const next = visibleWindow();
    if (Math.abs(next.from - state.window.from) < 5 && Math.abs(next.to - state.window.to) < 5) return;
    state.window = next;
    state.socket.send(JSON.stringify({ type: "window", from: next.from, to: next.to }));
  }, 150);
}
window.addEventListener("scroll", followScroll, { passive: true });
window.addEventListener("resize", followScroll, { passive: true });

// A favorite names its exchange unless it is the default one (`KRW-BTC`, `ID:KRW-BTC`).
function favoriteKey(market, exchange = state.exchange) {
  return keyOf(market, exchange);
}

function selectExchange(exchange) {
  state.exchange = exchange;
  localStorage.setItem("sise.exchange", exchange);
  for (const button of $$("[data-exchange]")) button.setAttribute("aria-pressed", String(button.dataset.exchange === exchange));
  sendView();
  loadPremium();
}

// The market's 김프 (median of the top 20 by trade value) and the premium's sources, as the
// server words them; every ten seconds while a KRW board shows.
async function loadPremium() {
  const bar = $("#premium-bar");
  if (state.quote !== "KRW" || state.tab === "ranking" || state.tab === "info") { bar.hidden = true; return; }
  try {
    let body;
    try { body = await get(`/api/premium?exchange=${state.exchange}&symbols=BTC&lang=${state.lang}`); } catch (_) { bar.hidden = true; return; }
    const figure = $("#market-premium");
    figure.textContent = body.display.marketPremium;
    figure.className = body.display.tone || "";
    $("#premium-source").textContent = body.unavailable || body.display.fallback || body.display.source;
    // The day's curve: the server's own SVG (numbers only).
    $("#premium-chart").innerHTML = body.display.chart || "";
    bar.hidden = false;
  } catch (_) { /* the bar keeps its last figure */ }
}

// The quotes the exchange has come with its snapshot; a quote it lacks falls back to KRW.
function applyQuotes(quotes) {
  if (!quotes) return;
  for (const button of $$("[data-quote]")) button.hidden = !quotes.includes(button.dataset.quote);
  if (!quotes.includes(state.quote)) {
    state.quote = "KRW";
    for (const button of $$("[data-quote]")) button.setAttribute("aria-pressed", String(button.dataset.quote === "KRW"));
    sendView();
  }
}

function handle(message) {
  switch (message.type) {
    case "snapshot":
      $("#demo-badge").hidden = !message.demo;
      showingSaved = null;
      $("#last-board").hidden = true;
      if (message.view) {
        state.nextSort = message.view.next;
        if (message.view.exchange !== state.exchange) break;   // an answer to a view already left
        applyQuotes(message.view.quotes);
      }
      renderSnapshot(message.rows, message.order);
      applyStatus(message.status);
      saveBoard();
      break;
    case "patch":
      for (const row of message.rows || []) { updateRow(row); info.tick(row.market, row.exchange); }
      if (message.order) reorder(message.order);
      saveBoard();
      break;
    case "status":
      $("#demo-badge").hidden = !message.demo;
      applyStatus(message);
      break;
    case "portfolio":
      portfolio.handle(message);
      break;
    case "orderbook":
    case "trades":
      info.pushed(message);
      break;
    case "alert":
      alerts.fired(message);
      break;
    case "favorites":
      // Starred or cleared on another page or device of the same owner.
      state.favorites = new Set(message.favorites || []);
      refreshStars();
      break;
    default:
      break;
  }
}

// ---------- Rendering ----------

// ---------- The last board, for an offline start ----------

// What the board showed, kept on the device (at most every 5 s) so the app opens offline with
// it — marked stale with its age until live data replaces it.
let savedAt = 0;
let showingSaved = null;
function saveBoard() {
  if (Date.now() - savedAt < 5000 || state.tab !== "exchange") return;
  savedAt = Date.now();
  const rows = state.rowOrder.map((market) => state.data.get(market)).filter(Boolean);
  try {
    localStorage.setItem("sise.lastBoard", JSON.stringify({ at: savedAt, exchange: state.exchange, quote: state.quote, rows, order: state.rowOrder }));
  } catch (_) { /* storage full or refused: nothing to restore later */ }
}

function restoreBoard() {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem("sise.lastBoard") || "null"); } catch (_) { return; }
  if (!saved || !Array.isArray(saved.rows) || saved.exchange !== state.exchange || saved.quote !== state.quote || state.rows.size > 0) return;
  renderSnapshot(saved.rows, Array.isArray(saved.order) ? saved.order : saved.rows.map((row) => row.market));
  for (const tr of state.rows.values()) tr.classList.add("stale");
  showingSaved = saved.at;
  showSavedAge();
}

function showSavedAge() {
  if (showingSaved == null) return;
  const minutes = Math.max(0, Math.round((Date.now() - showingSaved) / 60000));
  const age = minutes < 60 ? t("ageMinutes", { n: minutes }) : t("ageHours", { n: Math.round(minutes / 60) });
  const note = $("#last-board");
  note.textContent = t("lastBoard", { age });
  note.hidden = false;
}
setInterval(showSavedAge, 30000);

// The board's rows gone at once (another tab's set): its loading note stands until the answer.
function clearRows() {
  for (const tr of state.rows.values()) tr.remove();
  state.rows = new Map();
  state.data.clear();
  state.rowOrder = [];
  $("#empty").hidden = true;
}

// A fresh snapshot refills the rows it shares with the page (same market on the same exchange) in
// place, so focus, scroll and what assistive technology holds survive. A row the order still lists
// but the snapshot leaves out (outside the page's window) stays where the keyboard may be, marked
// pending until its figures come; the rest are made anew and `reorder` drops those it no longer lists.
function renderSnapshot(rows, order) {
  const previous = state.rows;
  state.rows = new Map();
  state.data.clear();
  for (const row of rows) {
    let tr = previous.get(row.market);
    if (tr && tr.dataset.exchange === exchangeOf(row)) {
      previous.delete(row.market);
      delete tr.dataset.pending;
      fillRow(tr, row, null);
    } else {
      tr = buildRow(row);
    }
    state.rows.set(row.market, tr);
    state.data.set(row.market, row);
  }
  const listed = new Set(order);
  for (const [market, tr] of previous) {
    if (listed.has(market) && state.tab === "exchange" && tr.dataset.exchange === state.exchange) {
      tr.dataset.pending = "true";
      state.rows.set(market, tr);
    } else {
      tr.remove();
    }
  }
  state.rowOrder = [];
  reorder(order);
}

function buildRow(row) {
  const tr = document.createElement("tr");
  tr.dataset.market = row.market;
  // The whole row opens the coin: reachable with Tab and the arrow keys, opened with Enter.
  tr.tabIndex = 0;
  tr.className = "target";
  const star = document.createElement("button");
  star.type = "button";
  star.className = "star";
  star.dataset.action = "favorite";
  star.textContent = "★";
  const starCell = document.createElement("td");
  starCell.append(star);
  const nameCell = document.createElement("td");
  // The cells' parts are made once; ticks change only their text.
  const name = document.createElement("span");
  name.className = "name";
  const symbol = document.createElement("span");
  symbol.className = "symbol";
  const mark = document.createElement("span");
  mark.className = "mark";
  const code = document.createElement("span");
  code.className = "code";
  const venue = document.createElement("span");
  venue.className = "venue";
  symbol.append(mark, code, venue);
  nameCell.append(name, symbol);
  const price = document.createElement("td");
  price.className = "num price";
  const rate = document.createElement("td");
  rate.className = "num rate";
  const amount = document.createElement("span");
  amount.className = "amount";
  rate.append(document.createTextNode(""), amount);
  const premium = document.createElement("td");
  premium.className = "num premium";
  const value = document.createElement("td");
  value.className = "num value";
  // The trade value in full, and short (억/조) for a phone's narrow column: the style shows one.
  const long = document.createElement("span");
  long.className = "long";
  const short = document.createElement("span");
  short.className = "short";
  value.append(long, short);
  tr.append(starCell, nameCell, price, rate, premium, value);
  fillRow(tr, row, null);
  return tr;
}

// Text only when it changed: an unchanged node is left alone (no layout work, no stale references).
function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

// Every user-visible string goes in as text: coin names can hold anything.
function fillRow(tr, row, previous) {
  tr.dataset.change = row.change;
  tr.dataset.exchange = exchangeOf(row);
  const star = $("[data-action=favorite]", tr);
  star.setAttribute("aria-pressed", String(state.favorites.has(favoriteKey(row.market, tr.dataset.exchange))));
  star.setAttribute("aria-label", `${t("star")} ${row.market}`);
  const [name, symbol] = tr.children[1].children;
  const [mark, code, venue] = symbol.children;
  setText(name, rowName(row, state.lang));
  // Warning marks ride on the symbol line so narrow phones keep the whole name.
  mark.hidden = !(row.warning || row.caution);
  mark.classList.toggle("warning", Boolean(row.warning));
  mark.classList.toggle("caution", !row.warning && Boolean(row.caution));
  setText(mark, row.warning ? t("warning") : row.caution ? t("caution") : "");
  setText(code, row.market.includes("-") ? `${row.symbol}/${row.market.split("-")[0]}` : row.symbol);
  // In the favorites tab each row says where it trades.
  const where = state.tab === "favorites" ? ` · ${exchangeName(tr.dataset.exchange)}` : "";
  venue.hidden = !where;
  setText(venue, where);
  const price = tr.children[2];
  setText(price, row.display.price);
  const rate = tr.children[3];
  rate.firstChild.nodeValue = row.display.changeRate;
  setText(rate.lastChild, row.display.changePrice);
  const premium = tr.children[4];
  setText(premium, row.display.premium || "-");
  premium.classList.toggle("rise", row.display.premiumTone === "rise");
  premium.classList.toggle("fall", row.display.premiumTone === "fall");
  const [long, short] = tr.children[5].children;
  setText(long, row.display.tradeValue);
  setText(short, row.display.tradeValueShort || row.display.tradeValue);
  if (previous && previous.price !== row.price) {
    price.classList.remove("flash-up", "flash-down");
    void price.offsetWidth; // restart the animation
    price.classList.add(row.price > previous.price ? "flash-up" : "flash-down");
  }
}

// After a language switch no row keeps the last language's words: names and labels are the
// page's to redo at once; the server's worded figures (거래대금's 백만) wait, marked pending, for
// their words in the new language (the server sends them as rows come into the window).
function rewordRows() {
  for (const [market, tr] of state.rows) {
    const row = state.data.get(market);
    if (!row) continue;
    const display = { ...row.display, tradeValue: "…", tradeValueShort: "…" };
    fillRow(tr, { ...row, display }, null);
    state.data.set(market, { ...row, display });
    tr.dataset.pending = "true";
  }
}

// A rank outside the page's window: its place is kept (so scrolling works) until its row comes.
function placeholder(market) {
  const [quote, symbol] = market.split("-");
  const tr = buildRow({ market, exchange: state.exchange, koreanName: symbol || market, englishName: symbol || market, symbol: symbol || market,
    change: "EVEN", price: 0, display: { price: "…", changeRate: "", changePrice: "", premium: "", tradeValue: "" } });
  tr.dataset.pending = "true";
  return tr;
}

function updateRow(row) {
  const tr = state.rows.get(row.market);
  if (tr && tr.dataset.pending) {
    delete tr.dataset.pending;
    fillRow(tr, row, null);
    state.data.set(row.market, row);
    return;
  }
  if (!tr) {
    const element = buildRow(row);
    state.rows.set(row.market, element);
    state.data.set(row.market, row);
    return;
  }
  fillRow(tr, row, state.data.get(row.market));
  state.data.set(row.market, row);
}

// Moving an element in the DOM takes the focus from it: the keyboard's place is given back after.
function reorder(order) {
  const body = $("#rows");
  loaded(body);
  const active = document.activeElement;
  const focused = active && body.contains(active) ? active : null;
  const keep = new Set(order);
  for (const [market, tr] of state.rows) {
    if (!keep.has(market)) { tr.remove(); state.rows.delete(market); state.data.delete(market); }
  }
  let cursor = body.firstElementChild;
  const shown = state.window;
  for (const [index, market] of order.entries()) {
    let tr = state.rows.get(market);
    if (!tr) {
      tr = placeholder(market);
      state.rows.set(market, tr);
    }
    // Outside the window the server sends no more changes: the row waits, marked, until it returns.
    if (shown && (index < shown.from || index >= shown.to)) tr.dataset.pending = "true";
    if (tr !== cursor) body.insertBefore(tr, cursor); else cursor = cursor.nextElementSibling;
  }
  state.rowOrder = order;
  if (focused && focused.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
  const empty = $("#empty");
  empty.hidden = order.length > 0;
  $("#clear-favorites").hidden = state.tab !== "favorites" || order.length === 0;
  empty.textContent = state.tab === "favorites" && !state.q ? t("emptyFavorites") : t("empty");
}

function refreshStars() {
  for (const [market, tr] of state.rows) {
    $("[data-action=favorite]", tr).setAttribute("aria-pressed", String(state.favorites.has(favoriteKey(market, tr.dataset.exchange))));
  }
  ranking.refreshStars();
}

// ---------- Status and banner ----------

function setChip(stateName) {
  const chip = $("#status");
  chip.dataset.state = stateName;
  chip.textContent = t(stateName);
}

function applyStatus(status) {
  const upstream = status && status.exchanges && status.exchanges[state.exchange];
  if (!upstream) return;
  state.upstream = upstream;
  setChip(upstream.state);
  const age = upstream.ageMs != null ? ` · ${t("ageSeconds", { seconds: Math.round(upstream.ageMs / 1000) })}` : "";
  $("#status").title = (upstream.message || t(upstream.state)) + age;
  for (const tr of state.rows.values()) tr.classList.toggle("stale", Boolean(upstream.stale));
  updateBanner();
}

function updateBanner() {
  const banner = $("#offline-banner");
  const message = $("#offline-message");
  // A page still opening its first connection has lost nothing: the chip says "connecting".
  if (!state.connected && state.lost) {
    message.textContent = t("lostServer");
    banner.hidden = false;
  } else if (state.upstream && state.upstream.state === "offline") {
    message.textContent = t("lostUpstream", { exchange: exchangeName(state.exchange) });
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }
}

// ---------- Interaction ----------

// `kind` marks what the toast says (`alert` for a fired alert, which stays longer).
// A toast already on screen with the same words is shown again for its full time, never
// stacked (seven quick failed searches are one "try again" toast); at most three stand at once.
function toast(text, { ms = 2500, kind = "" } = {}) {
  const shelf = $("#toasts");
  let element = Array.from(shelf.children).find((shown) => shown.textContent === text);
  if (!element) {
    element = document.createElement("div");
    element.className = "toast";
    element.setAttribute("role", "status");
    element.textContent = text;
  }
  if (kind) element.dataset.kind = kind; else delete element.dataset.kind;
  shelf.append(element);
  while (shelf.children.length > 3) shelf.firstElementChild.remove();
  clearTimeout(element.expiry);
  element.expiry = setTimeout(() => element.remove(), ms);
}

async function toggleFavorite(market) {
  const had = state.favorites.has(market);
  try {
    const body = await api(had ? "DELETE" : "PUT", `/api/favorites/${encodeURIComponent(market)}`);
    if (body.favorite) state.favorites.add(body.item); else state.favorites.delete(body.item);
    refreshStars();
    toast(had ? t("removed") : t("added"));
  } catch (_) {
    toast(t("favoriteFailed"));
  }
}

// The sort cycle is the server's: each snapshot says what tapping every column leads to.
function nextSort(key) {
  const next = state.nextSort && state.nextSort[key];
  if (!next) return;
  state.sort = next.sort;
  state.order = next.order;
  updateSortHeaders();
  sendView();
}

function updateSortHeaders() {
  for (const button of $$("[data-sort]")) {
    const active = button.dataset.sort === state.sort && state.order !== "none";
    button.setAttribute("aria-sort", active ? (state.order === "asc" ? "ascending" : "descending") : "none");
  }
}

// A tab the person chose: shown, and a new entry in the browser's history.
function selectTab(tab) {
  showTab(tab);
  remember(true);
}

function showTab(tab) {
  state.tab = tab;
  // Between 거래소 and 관심 the set of rows changes: the other tab's rows never stand under this one.
  if ((tab === "exchange" || tab === "favorites") && (tab === "favorites") !== Boolean(state.rowsOfFavorites)) clearRows();
  for (const button of $$("[data-tab]")) button.setAttribute("aria-selected", String(button.dataset.tab === tab));
  nav.showing(tab);
  $("#coin-detail").hidden = true;
  info.syncDepth();
  // Pages of their own: the board and its toolbar step aside.
  const pages = ["info", "compare", "profile", "ranking", "portfolio", "alerts"];
  $("#board-panel").hidden = pages.includes(tab);
  $("#info-panel").hidden = tab !== "info";
  $("#profile-panel").hidden = tab !== "profile";
  $("#ranking-panel").hidden = tab !== "ranking";
  $("#portfolio-panel").hidden = tab !== "portfolio";
  $("#alerts-panel").hidden = tab !== "alerts";
  if (tab === "alerts") alerts.start();
  if (tab === "ranking") ranking.start(); else ranking.stop();
  if (tab === "portfolio") portfolio.start(); else portfolio.stop();
  if (tab === "ranking" || tab === "profile" || tab === "portfolio" || tab === "alerts") {
    compare.stop();
    $("#compare-panel").hidden = true;
    if (tab === "profile") account.showProfile();
    return;
  }
  $("#compare-panel").hidden = tab !== "compare";
  $("#clear-favorites").hidden = tab !== "favorites" || state.rows.size === 0;
  if (tab === "compare") compare.start(); else compare.stop();
  if (tab === "info") info.showHome(); else if (tab !== "compare") sendView();
}

// ---------- Addresses (History API) ----------

const TAB_PATHS = { exchange: "/", favorites: "/favorites", info: "/info", compare: "/compare", ranking: "/ranking",
  portfolio: "/portfolio", alerts: "/alerts", profile: "/profile" };
const SORTS = ["name", "price", "change", "value", "premium"];

// The address of what is on screen: the coin's, or the tab's path with the board's view as a query.
function addressNow() {
  const detail = $("#coin-detail");
  if (!detail.hidden && detail.dataset.coinId) {
    const id = detail.dataset.coinId, colon = id.indexOf(":");
    return colon > 0 ? `/coin/${encodeURIComponent(id.slice(colon + 1))}?exchange=${id.slice(0, colon)}` : `/coin/${encodeURIComponent(id)}`;
  }
  const path = TAB_PATHS[state.tab] || "/";
  if (state.tab !== "exchange" && state.tab !== "favorites") return path;
  const query = new URLSearchParams();
  if (state.exchange !== DEFAULT_EXCHANGE) query.set("exchange", state.exchange);
  if (state.quote !== "KRW") query.set("quote", state.quote);
  if (state.order !== "none") { query.set("sort", state.sort); query.set("order", state.order); }
  if (state.q) query.set("q", state.q);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

// While an address is being applied (back/forward, and until the first one is) nothing new is recorded.
let routing = true;
function remember(push) {
  if (routing) return;
  const address = addressNow();
  if (address === location.pathname + location.search) return;
  if (push) history.pushState(null, "", address); else history.replaceState(null, "", address);
}

// Shows what the address says. `first`: a board address without `exchange` keeps the device's choice.
async function route(first = false) {
  routing = true;
  try {
    const path = location.pathname, query = new URLSearchParams(location.search);
    if (path.startsWith("/coin/")) {
      const code = decodeURIComponent(path.slice("/coin/".length));
      const exchange = query.get("exchange");
      await info.openDetail(EXCHANGES.includes(exchange) ? keyOf(code, exchange) : code);
      return;
    }
    const tab = Object.keys(TAB_PATHS).find((key) => TAB_PATHS[key] === path) || "exchange";
    if (tab === "exchange" || tab === "favorites") {
      const exchange = query.get("exchange") || (first ? state.exchange : DEFAULT_EXCHANGE);
      if (EXCHANGES.includes(exchange) && exchange !== state.exchange) selectExchange(exchange);
      state.quote = QUOTES.includes(query.get("quote")) ? query.get("quote") : QUOTES[0];
      for (const button of $$("[data-quote]")) button.setAttribute("aria-pressed", String(button.dataset.quote === state.quote));
      const order = query.get("order");
      if (SORTS.includes(query.get("sort")) && (order === "asc" || order === "desc")) {
        state.sort = query.get("sort");
        state.order = order;
      } else {
        state.sort = "value";
        state.order = "none";
      }
      updateSortHeaders();
      state.q = (query.get("q") || "").slice(0, 64);
      $("#search").value = state.q;
    }
    showTab(tab);
  } finally {
    routing = false;
  }
  if (first) remember(false);
}
window.addEventListener("popstate", () => route());

function applyLanguage() {
  document.documentElement.lang = state.lang;
  const labels = { exchange: "tabExchange", favorites: "tabFavorites", info: "tabInfo", compare: "tabCompare", ranking: "tabRanking",
    portfolio: "tabPortfolio", alerts: "tabAlerts", profile: "tabProfile" };
  for (const button of $$("[data-tab]")) $(".tab-label", button).textContent = t(labels[button.dataset.tab]);
  nav.applyLanguage();
  applyFileLanguage(t);
  const premiumColumn = $("#premium-column");
  premiumColumn.textContent = t("premium");
  premiumColumn.setAttribute("aria-label", t("premiumColumn"));
  for (const button of $$("[data-sort]")) $(".label", button).textContent = t(button.dataset.sort);
  $("#search").placeholder = t("search");
  $("#search").setAttribute("aria-label", t("search"));
  $("#retry").textContent = t("retry");
  $("#clear-favorites").textContent = t("clearAll");
  $("#confirm-text").textContent = t("confirmClear");
  $("[data-action=cancel]").textContent = t("cancel");
  $("[data-action=confirm]").textContent = t("confirm");
  $("#coin-search").placeholder = t("coinSearch");
  $("#coin-search").setAttribute("aria-label", t("coinSearch"));
  const labels2 = { coins: "coins", nfts: "nfts", exchanges: "exchanges" };
  for (const button of $$("[data-result-tab]")) button.textContent = t(labels2[button.dataset.resultTab]);
  $("#favorite-cards-title").textContent = t("favoriteCoins");
  $("#trending-title").textContent = t("trendingCoins");
  $("#trending-nfts-title").textContent = t("trendingNFTs");
  $("#detail-back").textContent = t("back");
  $("#compare-coin .label").textContent = t("coin");
  $("#compare-gap .label").textContent = t("gap");
  $("#compare-search").placeholder = t("search");
  $("#compare-search").setAttribute("aria-label", t("search"));
  $("#compare-global").textContent = t("globalPrice");
  $(".exchanges").setAttribute("aria-label", t("exchange"));
  $(".quotes").setAttribute("aria-label", t("market"));
  $("#theme-toggle").setAttribute("aria-label", t("theme"));
  for (const label of $$("th.col-star .sr-only")) label.textContent = t("star");
  account.applyLanguage();
  ranking.applyLanguage();
  portfolio.applyLanguage();
  info.applyLanguage();
  alerts.applyLanguage();
  $("#search-empty").textContent = t("empty");
  $("#market-premium-label").textContent = t("marketPremium");
  loadPremium();
  $("#lang-toggle").textContent = state.lang === "ko" ? "EN" : "한";
  setChip($("#status").dataset.state);
  updateBanner();
}

// 김프 as a column the person switches on or off (kept on the device); unset, the layout decides
// (shown where there is room). The switch says what is on screen.
function premiumColumnShown() {
  const header = $("#board th.premium-col");
  return getComputedStyle(header).display !== "none";
}

function setPremiumColumn(on) {
  if (on !== undefined) localStorage.setItem("sise.premiumColumn", on ? "on" : "off");
  const saved = localStorage.getItem("sise.premiumColumn");
  $("#board").dataset.premium = saved === "on" || saved === "off" ? saved : "auto";
  $("#premium-column").setAttribute("aria-pressed", String(premiumColumnShown()));
}
matchMedia("(max-width: 374px)").addEventListener("change", () => setPremiumColumn());

// The board's column heads stay on screen as the list scrolls, under the bars that stay too
// (the top bar; on wide screens the tabs): their height, measured, is where the heads stop.
function placeBoardHead() {
  const bars = $$(".topbar, .tabs").filter((bar) => getComputedStyle(bar).position === "sticky");
  const top = bars.reduce((sum, bar) => sum + bar.getBoundingClientRect().height, 0);
  document.documentElement.style.setProperty("--board-head-top", `${Math.round(top)}px`);
}
new ResizeObserver(placeBoardHead).observe(document.querySelector(".topbar"));
addEventListener("resize", placeBoardHead);

function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
}

async function init() {
  applyTheme(localStorage.getItem("sise.theme") || "auto");
  // The live socket opens at once, beside the words, the session and the route (its handshake
  // no longer waits for them); the view is asked for once the page knows it.
  connect();
  setPremiumColumn();
  // Both languages at once (two small files), so the language toggle never waits.
  try { await loadStrings(); } catch (_) { /* the keys show until a reload; data still flows */ }
  applyLanguage();
  updateSortHeaders();

  $("#rows").addEventListener("click", (event) => {
    const star = event.target.closest("[data-action=favorite]");
    const tr = event.target.closest("tr");
    if (!tr) return;
    const key = favoriteKey(tr.dataset.market, tr.dataset.exchange);
    if (star) { toggleFavorite(key); return; }
    info.openDetail(key);
  });
  $("#rows").addEventListener("keydown", (event) => {
    const tr = event.target.closest("tr[data-market]");
    if (!tr || event.target.closest("button")) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      info.openDetail(favoriteKey(tr.dataset.market, tr.dataset.exchange));
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = event.key === "ArrowDown" ? tr.nextElementSibling : tr.previousElementSibling;
      if (next) next.focus();
    }
  });
  for (const button of $$("[data-sort]")) button.addEventListener("click", () => nextSort(button.dataset.sort));
  for (const button of $$("[data-tab]")) button.addEventListener("click", () => selectTab(button.dataset.tab));
  for (const button of $$("[data-exchange]")) {
    button.setAttribute("aria-pressed", String(button.dataset.exchange === state.exchange));
    button.addEventListener("click", () => selectExchange(button.dataset.exchange));
  }
  // A gesture from one of the seed apps: a swipe across the board moves between 거래소 and 관심.
  let touch = null;
  $("#board-panel").addEventListener("touchstart", (event) => {
    const point = event.changedTouches[0];
    touch = { x: point.clientX, y: point.clientY };
  }, { passive: true });
  $("#board-panel").addEventListener("touchend", (event) => {
    if (!touch) return;
    const point = event.changedTouches[0];
    const dx = point.clientX - touch.x, dy = point.clientY - touch.y;
    touch = null;
    if (Math.abs(dx) < 60 || Math.abs(dy) > 40) return;
    if (dx < 0 && state.tab === "exchange") selectTab("favorites");
    else if (dx > 0 && state.tab === "favorites") selectTab("exchange");
  }, { passive: true });
  for (const button of $$("[data-quote]")) {
    button.addEventListener("click", () => {
      state.quote = button.dataset.quote;
      for (const other of $$("[data-quote]")) other.setAttribute("aria-pressed", String(other === button));
      sendView();
      loadPremium();
    });
  }
  let searchTimer = null;
  $("#search").addEventListener("input", (event) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => { state.q = event.target.value; sendView(); }, 120);
  });
  $("#retry").addEventListener("click", () => { state.retryDelay = 500; connect(); });
  $("#clear-favorites").addEventListener("click", () => { $("#confirm-dialog").hidden = false; });
  $("[data-action=cancel]").addEventListener("click", () => { $("#confirm-dialog").hidden = true; });
  $("[data-action=confirm]").addEventListener("click", async () => {
    $("#confirm-dialog").hidden = true;
    try {
      await api("DELETE", "/api/favorites");
      state.favorites = new Set();
      refreshStars();
      toast(t("cleared"));
      sendView();
    } catch (_) { toast(t("favoriteFailed")); }
  });
  $("#lang-toggle").addEventListener("click", () => {
    state.lang = state.lang === "ko" ? "en" : "ko";
    localStorage.setItem("sise.lang", state.lang);
    document.cookie = `sise_lang=${state.lang}; path=/; max-age=63072000; samesite=lax`;
    applyLanguage();
    rewordRows();
    sendView();
  });
  // 자동 (the system's), then the other look, then the system's look kept, then 자동 again: the
  // first tap always changes what is seen, and 자동 is never out of reach.
  $("#theme-toggle").addEventListener("click", () => {
    const current = document.documentElement.dataset.theme;
    const system = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    const other = system === "dark" ? "light" : "dark";
    const next = current === "auto" ? other : current === other ? system : "auto";
    if (next === "auto") localStorage.removeItem("sise.theme"); else localStorage.setItem("sise.theme", next);
    applyTheme(next);
    nav.applyLanguage();
  });
  $("#premium-column").addEventListener("click", () => {
    setPremiumColumn(!premiumColumnShown());
    sendView();
  });
  setupFileFields(t);

  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  loadPremium();
  setInterval(loadPremium, 10000);
  await account.load();
  loadFavorites();
  await route(true);
  if (state.tab === "exchange") restoreBoard();
  state.routed = true;
  for (const message of state.early.splice(0)) handle(message);
  if (state.socket && state.socket.readyState === WebSocket.OPEN) socketReady();
}

// The coin page's bell: the 알림 tab's form, set to that market.
function alertFor(exchange, market, name) {
  selectTab("alerts");
  alerts.prefill(exchange, market, name);
}
const info = setupInfo({ api, t, toast, state, selectTab, toggleFavorite, navigated: () => remember(true), alertFor, send });
const nav = setupNav({ t, selectTab });
const compare = setupCompare({ t, state, open: (symbol, exchange) => info.openDetail(favoriteKey(`KRW-${symbol}`, exchange)) });
// A ranking row opens its coin; its live-board link opens the market on its exchange.
function openFromRanking(id, exchange) {
  if (exchange) selectExchange(exchange);
  info.openDetail(exchange ? favoriteKey(id, exchange) : id);
}
const portfolio = setupPortfolio({ t, toast, state, call, send });
const alerts = setupAlerts({ t, toast, state, call });
const ranking = setupRanking({ t, toast, state, toggleFavorite, openDetail: openFromRanking });
// Who is logged in changed: favorites and the live stream now speak for the new owner.
function ownerChanged() {
  loadFavorites();
  if (state.tab === "portfolio") portfolio.refresh();
  const old = state.socket;
  state.socket = null;          // its close is not a lost connection
  if (old) old.close();
  connect();
}
const account = setupAccount({ t, toast, state, selectTab, onOwnerChanged: ownerChanged });
init();
