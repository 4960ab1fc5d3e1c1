// Sise web board: renders what the server decided (order, formats); never talks to an exchange.
// This module wires the page's parts together; each owns its own state and the others read it
// through what it exposes (the board's view: view.js; its rows: board-rows.js; the connection:
// socket.js; addresses: routes.js). Here live only the language and the owner's favorites.
import { loadStrings, text, pickLanguage } from "./i18n.js";
import { setupInfo } from "./info.js";
import { setupCompare } from "./compare.js";
import { setupMatrix } from "./premium-matrix.js";
import { setupAccount } from "./account.js";
import { setupRanking } from "./ranking.js";
import { setupPortfolio } from "./portfolio.js";
import { setupAlerts } from "./alerts.js";
import { favoriteKey, splitKey } from "./exchanges.js";
import { request } from "./http.js";
import { setupNav } from "./nav.js";
import { setupFileFields, applyFileLanguage } from "./forms.js";
import { toast } from "./toast.js";
import { createSocket } from "./socket.js";
import { createBoardRows } from "./board-rows.js";
import { createWalletMarks } from "./wallet-marks.js";
import { createView } from "./view.js";
import { createPremiumBar } from "./premium-bar.js";
import { createSavedBoard } from "./saved-board.js";
import { createStatus } from "./status.js";
import { createRoutes } from "./routes.js";
import { applyPageWords } from "./page-words.js";
import { wireBoard } from "./board-controls.js";
import { keepColumnsWhole } from "./sticky-columns.js";
import { createReturnPlace } from "./return-place.js";
import { createOverviews } from "./overviews.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

let lang = pickLanguage();
// The owner's favorites: null until the server has said what they are (no star says anything before).
let favorites = null;
let favoritesAsked = null;   // the request under way, which a tap waits for
const t = (key, values) => text(lang, key, values);
const api = (method, path) => request(method, path);
// A change with a body (portfolio, alerts): the API's error message when it refuses.
const call = (method, path, body, type = "application/json") => request(method, path, { body, type });

const socket = createSocket({ ready: socketReady, message: handle, closed: socketClosed });
const wallets = createWalletMarks({ lang: () => lang, changed: () => rows.refreshWallets() });
const rows = createBoardRows({
  t, lang: () => lang, tab: () => view.tab, exchange: () => view.exchange, query: () => view.q, isFavorite,
  walletMark: (exchange, symbol) => wallets.of(exchange, symbol),
});
const view = createView({ t, lang: () => lang, socket, rows, remember: (push) => routes.remember(push), changed: () => premium.load() });
const premium = createPremiumBar({ lang: () => lang, view });
const saved = createSavedBoard({ t, view, rows });
const status = createStatus({ t, socket, view, rows });
const routes = createRoutes({ view, showTab, openDetail: (id) => info.openDetail(id),
  premiumVenue: { get: () => matrix.venue, set: (venue) => matrix.setVenue(venue) } });
const place = createReturnPlace();

// A coin opened from a list: the list's place is kept for the way back (`row`: the row tapped).
function openCoin(key, row = null) {
  place.leaving(view.tab, row);
  info.openDetail(key);
}

// What the views read of the page, and can never write: the language, the tab, the connection,
// the owner's favorites (a copy) and the board's last row of a market.
const page = Object.freeze({
  get lang() { return lang; },
  get tab() { return view.tab; },
  get connected() { return socket.connected; },
  get favorites() { return new Set(favorites || []); },
  isFavorite,
  row: (market) => rows.row(market),
});
// 더보기's overviews (every coin's shut wallets, notices, changes): a coin opens its page.
const overviews = createOverviews({ t, state: page, open: (symbol, exchange) => openCoin(favoriteKey(`KRW-${symbol}`, exchange)) });

// true or false once the favorites are known; null before.
function isFavorite(key) {
  return favorites ? favorites.has(key) : null;
}

// Asks the server for the favorites; resolves to whether they are now known.
function loadFavorites() {
  const asked = (async () => {
    try {
      const body = await api("GET", "/api/favorites");
      if (favoritesAsked === asked) setFavorites(body.favorites);
    } catch (_) { /* the socket's status frames tell the user about trouble */ }
    return favorites !== null;
  })();
  favoritesAsked = asked;
  return asked;
}

function setFavorites(list) {
  favorites = new Set(list || []);
  refreshStars();
}

// Every star on the page (the board's, the ranking's, the coin page's and coin info's) redrawn.
function refreshStars() {
  rows.refreshStars();
  ranking.refreshStars();
  info.refreshStars();
}

async function toggleFavorite(key) {
  // A star is tapped only once it says something; a tap from elsewhere waits for the answer.
  if (favorites === null && !(await (favoritesAsked || loadFavorites()))) {
    toast(t("favoriteFailed"));
    return;
  }
  const had = favorites.has(key);
  try {
    const body = await api(had ? "DELETE" : "PUT", `/api/favorites/${encodeURIComponent(key)}`);
    if (body.favorite) favorites.add(body.item); else favorites.delete(body.item);
    refreshStars();
    toast(had ? t("removed") : t("added"));
  } catch (_) {
    toast(t("favoriteFailed"));
  }
}

// ---------- The live connection ----------

// The socket is open and the page knows what it shows: ask for that view.
function socketReady() {
  view.send();
  if (favorites === null) loadFavorites();   // the first ask failed (offline): ask again now
  portfolio.resume();
  info.socketChanged();
  status.banner();
}

function socketClosed() {
  info.socketChanged();
  status.lost();
}

function handle(message) {
  switch (message.type) {
    case "snapshot":
      $("#demo-badge").hidden = !message.demo;
      saved.replaced();
      if (message.view && !view.answered(message.view)) break;   // an answer to a view already left
      rows.snapshot(message.rows, message.order);
      status.apply(message.status);
      saved.save();
      break;
    case "patch":
      for (const row of message.rows || []) { rows.update(row); info.tick(row.market, row.exchange); }
      if (message.order) rows.reorder(message.order);
      saved.save();
      break;
    case "status":
      $("#demo-badge").hidden = !message.demo;
      status.apply(message);
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
      setFavorites(message.favorites);
      break;
    default:
      break;
  }
}

// ---------- Tabs ----------

// A tab the person chose: shown, and a new entry in the browser's history.
function selectTab(tab) {
  showTab(tab);
  routes.remember(true);
}

const PANELS = { info: "#info-panel", profile: "#profile-panel", ranking: "#ranking-panel", portfolio: "#portfolio-panel", alerts: "#alerts-panel",
  premium: "#premium-panel", wallets: "#wallets-panel", notices: "#notices-panel", events: "#events-panel" };

function showTab(tab) {
  // Between 거래소 and 관심 the set of rows changes: the other tab's rows never stand under this one.
  if ((tab === "exchange" || tab === "favorites") && view.rowsAreOtherTabs(tab)) rows.clear();
  view.setTab(tab);
  for (const button of $$("[data-tab]")) button.setAttribute("aria-selected", String(button.dataset.tab === tab));
  nav.showing(tab);
  $("#coin-detail").hidden = true;
  info.syncDepth();
  // Pages of their own: the board and its toolbar step aside.
  $("#board-panel").hidden = ["info", "compare", ...Object.keys(PANELS)].includes(tab);
  for (const [name, panel] of Object.entries(PANELS)) $(panel).hidden = tab !== name;
  if (tab === "alerts") alerts.start();
  if (tab === "ranking") ranking.start(); else ranking.stop();
  if (tab === "portfolio") portfolio.start(); else portfolio.stop();
  if (tab === "premium") matrix.start(); else matrix.stop();
  overviews.start(tab);
  if (tab === "ranking" || tab === "profile" || tab === "portfolio" || tab === "alerts" || tab === "premium") {
    compare.stop();
    $("#compare-panel").hidden = true;
    if (tab === "profile") account.showProfile();
    place.shown(tab);
    return;
  }
  $("#compare-panel").hidden = tab !== "compare";
  $("#clear-favorites").hidden = tab !== "favorites" || rows.size === 0;
  if (tab === "compare") compare.start(); else compare.stop();
  if (tab === "info") info.showHome(); else if (tab !== "compare") view.send();
  place.shown(tab);
}

function applyLanguage() {
  applyPageWords(t, lang);
  for (const button of $$("[data-overview]")) button.textContent = t("overviewAll");
  nav.applyLanguage();
  applyFileLanguage(t);
  account.applyLanguage();
  ranking.applyLanguage();
  portfolio.applyLanguage();
  info.applyLanguage();
  alerts.applyLanguage();
  overviews.applyLanguage();
  if (["wallets", "notices", "events"].includes(view.tab)) overviews.start(view.tab);
  premium.load();
  status.reword();
}

function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
}

// The board's column heads stay on screen as the list scrolls, under the bars that stay too
// (the top bar; on wide screens the tabs): their height, measured, is where the heads stop.
function placeBoardHead() {
  const bars = $$(".topbar, .tabs").filter((bar) => getComputedStyle(bar).position === "sticky");
  const top = bars.reduce((sum, bar) => sum + bar.getBoundingClientRect().height, 0);
  document.documentElement.style.setProperty("--board-head-top", `${Math.round(top)}px`);
}
new ResizeObserver(placeBoardHead).observe(document.querySelector(".topbar"));
addEventListener("resize", placeBoardHead);
// A coin page's 입출금, 공지 and 변동 lead to the same list for every coin (더보기's overviews).
for (const button of $$("[data-overview]")) button.addEventListener("click", () => selectTab(button.dataset.overview));

// The coin page's bell: the 알림 tab's form, set to that market.
function alertFor(exchange, market, name) {
  selectTab("alerts");
  alerts.prefill(exchange, market, name);
}

// A ranking row opens its coin; its live-board link opens the market on its exchange.
function openFromRanking(id, exchange) {
  if (exchange) view.selectExchange(exchange);
  openCoin(exchange ? favoriteKey(id, exchange) : id, `#ranking-rows tr[data-coin="${CSS.escape(id)}"]`);
}

// Who is logged in changed: favorites and the live stream now speak for the new owner.
function ownerChanged() {
  // The last owner's stars say nothing about the new one's until the server answers.
  favorites = null;
  refreshStars();
  loadFavorites();
  if (view.tab === "portfolio") portfolio.refresh();
  socket.renew();
}

const send = (message) => socket.send(message);
const info = setupInfo({ api, t, toast, state: page, selectTab, toggleFavorite, navigated: () => routes.remember(true), alertFor, send });
const nav = setupNav({ t, selectTab });
const compare = setupCompare({ t, state: page, open: (symbol, exchange) => openCoin(favoriteKey(`KRW-${symbol}`, exchange)) });
const matrix = setupMatrix({ t, state: page, open: (symbol, exchange) => openCoin(favoriteKey(`KRW-${symbol}`, exchange),
  `#matrix-rows tr[data-matrix="${CSS.escape(symbol)}"]`), moved: () => routes.remember(false) });
const portfolio = setupPortfolio({ t, toast, state: page, call, send });
const alerts = setupAlerts({ t, toast, state: page, call });
const ranking = setupRanking({ t, toast, state: page, toggleFavorite, openDetail: openFromRanking });
const account = setupAccount({ t, toast, state: page, selectTab, onOwnerChanged: ownerChanged });

async function init() {
  applyTheme(localStorage.getItem("sise.theme") || "auto");
  // The live socket opens at once, beside the words, the session and the route (its handshake
  // no longer waits for them); the view is asked for once the page knows it.
  socket.connect();
  premium.start();
  wallets.start();
  // Both languages at once (two small files), so the language toggle never waits.
  try { await loadStrings(); } catch (_) { /* the keys show until a reload; data still flows */ }
  applyLanguage();
  view.sortHeaders();
  wireBoard({
    view, socket, premium, selectTab, toggleFavorite,
    openDetail: (key) => {
      const { exchange, market } = splitKey(key);
      openCoin(key, `#rows tr[data-market="${CSS.escape(market)}"][data-exchange="${CSS.escape(exchange)}"]`);
    },
    clearFavorites: async () => {
      await api("DELETE", "/api/favorites");
      setFavorites([]);
      toast(t("cleared"));
      view.send();
    },
    failed: () => toast(t("favoriteFailed")),
    switchLanguage: () => {
      lang = lang === "ko" ? "en" : "ko";
      localStorage.setItem("sise.lang", lang);
      document.cookie = `sise_lang=${lang}; path=/; max-age=63072000; samesite=lax`;
      applyLanguage();
      rows.reword();
      wallets.load();
      view.send();
    },
    applyTheme: (theme) => { applyTheme(theme); nav.applyLanguage(); },
  });
  setupFileFields(t);
  keepColumnsWhole();

  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  await account.load();
  loadFavorites();
  await routes.route(true);
  if (view.tab === "exchange") saved.restore();
  socket.routed();
}

init();
