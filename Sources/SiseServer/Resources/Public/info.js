// The 코인정보 tab — favorite cards, trending, search — and the coin page it opens (coin-detail.js,
// with its book and tape in depth.js). Prices, formats and charts come from the server.
import { DEFAULT_EXCHANGE, splitKey, exchangeName } from "./exchanges.js";
import { get } from "./http.js";
import { showStar } from "./stars.js";
import { loading, loaded } from "./loading.js";
import { img, text, coinURL, marketOf } from "./coin-parts.js";
import { setupDepth } from "./depth.js";
import { setupCoinDetail } from "./coin-detail.js";
import { showNotices } from "./notices-list.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

export function setupInfo({ t, state, selectTab, toggleFavorite: toggleOwnerFavorite, navigated = () => {}, alertFor = () => {}, send = () => {} }) {
  let lastQuery = "";
  let searchFailure = null;
  let searchTimer = null;
  let inFlight = null;
  let results = { coins: [], nfts: [], exchanges: [] };
  let resultTab = "coins";

  // The favorites are the page's (app.js keeps them and says so); these views redraw their stars.
  async function toggleFavorite(id) {
    await toggleOwnerFavorite(id);
    detail.updateDetailStar();
    renderResults();
  }

  const depth = setupDepth({ t, state, send });
  const detail = setupCoinDetail({ t, state, depth, selectTab, toggleFavorite, navigated, alertFor });
  const openDetail = detail.openDetail;

  // ---------- Home: favorite cards and trending ----------

  async function showHome() {
    $("#info-home").hidden = false;
    renderCards();
    // The exchanges' latest notices (listings, delistings, maintenance, wallets).
    showNotices($("#latest-notices"), $("#latest-notices-note"), `limit=10&lang=${state.lang}`, t).catch(() => {});
    if (!$("#trending-coins").querySelector("li:not(.loading-row)")) loading($("#trending-coins"), t("loading"));
    try {
      renderTrending(await get(`/api/trending?lang=${state.lang}`));
    } catch (error) {
      loaded($("#trending-coins"));
      $("#trending-note").hidden = false;
      $("#trending-note").textContent = t("trendingUnavailable");
    }
  }

  function renderCards() {
    const cards = $("#favorite-cards");
    cards.textContent = "";
    const ids = Array.from(state.favorites);
    $("#favorite-cards-title").hidden = ids.length === 0;
    for (const id of ids) {
      const card = document.createElement("div");
      card.className = "card";
      card.dataset.coinId = id;
      const figures = text("div", "", "card-figures");
      figures.append(text("span", t("loading"), "card-price num"), text("span", "", "card-change num"));
      card.append(text("div", splitKey(id).market, "card-name"), figures);
      const spark = img(null);
      spark.src = coinURL(id, "/chart.svg", { range: "7d" });
      card.append(spark);
      card.addEventListener("click", () => openDetail(id));
      cards.append(card);
      fillCard(card, id);
    }
  }

  // A card names its coin as the exchange (or CoinGecko) does and gives its price and change.
  async function fillCard(card, id) {
    const price = card.querySelector(".card-price");
    try {
      const coin = await get(coinURL(id, "", { range: "1d", lang: state.lang }));
      if (!card.isConnected) return;
      const { exchange } = splitKey(id);
      card.querySelector(".card-name").textContent = exchange === DEFAULT_EXCHANGE || !marketOf(id) ? coin.name : `${coin.name} · ${exchangeName(exchange)}`;
      price.textContent = coin.display.price;
      const change = card.querySelector(".card-change");
      change.textContent = coin.display.changeRate;
      change.className = `card-change num ${coin.display.tone}`;
    } catch (error) {
      if (card.isConnected) price.textContent = "-";
    }
  }

  function renderTrending(body) {
    const note = $("#trending-note");
    note.hidden = !body.stale;
    if (body.stale) note.textContent = body.message || t("staleTrending");
    const coins = $("#trending-coins");
    coins.textContent = "";
    for (const coin of body.coins) {
      const li = document.createElement("li");
      li.dataset.coinId = coin.id;
      li.append(text("span", coin.rank, "rank"), img(coin.thumb));
      const name = text("span", coin.name, "grow");
      name.append(text("span", coin.symbol, "sym"));
      li.append(name, text("span", coin.display.price, "num"), text("span", coin.display.change, "num " + coin.display.tone));
      li.addEventListener("click", () => openDetail(coin.id));
      coins.append(li);
    }
    const nfts = $("#trending-nfts");
    nfts.textContent = "";
    for (const nft of body.nfts) {
      const li = document.createElement("li");
      li.dataset.nftId = nft.id;
      li.append(img(nft.thumb), text("span", nft.name, "grow"));
      // The server formats the figures (like every price): the page only places them.
      li.append(text("span", nft.display.floorPrice, "num"), text("span", nft.display.change, "num " + nft.display.tone));
      nfts.append(li);
    }
  }

  // ---------- Search ----------

  function onSearchInput(event) {
    clearTimeout(searchTimer);
    const query = event.target.value.trim();
    searchTimer = setTimeout(() => runSearch(query), 300);
  }

  async function runSearch(query) {
    if (query === lastQuery) return;          // duplicate suppression
    lastQuery = query;
    if (inFlight) inFlight.abort();           // a newer search makes the older one moot
    // The server looks up two characters or more, or one Hangul syllable (비 → 비트코인).
    if (query.length < (/[\u3131-\u314e\uac00-\ud7a3]/.test(query) ? 1 : 2)) {
      $("#search-results").hidden = true;
      $("#info-home").hidden = false;
      return;
    }
    const controller = new AbortController();
    inFlight = controller;
    $("#coin-search-loading").hidden = false;
    try {
      showResults(query, await get(`/api/search?q=${encodeURIComponent(query)}`, { signal: controller.signal }), null);
    } catch (error) {
      if (error.name === "AbortError") return;
      // The last query's results never stand under the new query: the list says why it is empty.
      showResults(query, { coins: [], nfts: [], exchanges: [] }, error.fromServer ? error.message : t("searchFailed"));
      lastQuery = "";                          // the same query may be asked again
      // A budget's refusal says when to come back ("…초 후에 다시 시도합니다"): the page does,
      // if the query is still the one typed.
      if (error.retryAfter) {
        searchTimer = setTimeout(() => { if ($("#coin-search").value.trim() === query) runSearch(query); }, error.retryAfter * 1000);
      }
    } finally {
      if (inFlight === controller) { inFlight = null; $("#coin-search-loading").hidden = true; }
    }
  }

  // `query`'s answer (or, with `failure`, why there is none) in place of the home view.
  function showResults(query, answer, failure) {
    results = answer;
    searchFailure = failure;
    $("#search-results").dataset.query = query;   // the query the list answers
    $("#info-home").hidden = true;
    $("#search-results").hidden = false;
    renderResults();
  }

  function renderResults() {
    const list = $("#result-list");
    if (!list) return;
    list.textContent = "";
    const items = results[resultTab] || [];
    const empty = $("#search-empty");
    empty.hidden = items.length > 0;
    // A failed search says why the list is empty (the server's words), not "no results".
    empty.textContent = searchFailure || t("empty");
    empty.dataset.failed = String(Boolean(searchFailure));
    for (const item of items) {
      const li = document.createElement("li");
      li.dataset.resultId = item.id;
      li.append(img(item.thumb));
      const name = text("span", item.name, "grow");
      if (item.symbol) name.append(text("span", item.symbol, "sym"));
      li.append(name);
      if (item.marketCapRank) li.append(text("span", "#" + item.marketCapRank, "num"));
      if (resultTab === "coins") {
        const star = document.createElement("button");
        star.type = "button";
        star.className = "star";
        star.dataset.action = "favorite";
        star.textContent = "★";
        showStar(star, state.isFavorite(item.id));
        star.addEventListener("click", (event) => { event.stopPropagation(); toggleFavorite(item.id); });
        li.append(star);
        li.addEventListener("click", () => openDetail(item.id));
      }
      list.append(li);
    }
  }

  $("#coin-search").addEventListener("input", onSearchInput);
  for (const button of $$("[data-result-tab]")) {
    button.addEventListener("click", () => {
      resultTab = button.dataset.resultTab;
      for (const other of $$("[data-result-tab]")) other.setAttribute("aria-selected", String(other === button));
      renderResults();
    });
  }

  return {
    showHome,
    // The favorites became known or changed: the coin page's star, the results' and the cards.
    refreshStars() {
      detail.updateDetailStar();
      for (const li of $$("#result-list li[data-result-id]")) {
        const star = $("[data-action=favorite]", li);
        if (star) showStar(star, state.isFavorite(li.dataset.resultId));
      }
      // The cards again only when the coins they show are not the favorites any more.
      const shown = $$("#favorite-cards .card").map((card) => card.dataset.coinId).join("\n");
      if (!$("#info-home").hidden && !$("#info-panel").hidden && shown !== Array.from(state.favorites).join("\n")) renderCards();
    },
    openDetail,
    tick: detail.tick,
    applyLanguage: detail.applyLanguage,
    syncDepth: depth.syncDepth,
    socketChanged: depth.socketChanged,
    pushed: depth.pushed,
  };
}
