// The 코인정보 tab and the coin detail page. Prices, formats and charts come from the server.
import { DEFAULT_EXCHANGE, splitKey, exchangeName, exchangeOf, rowName } from "./exchanges.js";
import { get } from "./http.js";
import { loading, loaded } from "./loading.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

export function setupInfo({ api, t, toast, state, selectTab, toggleFavorite: toggleOwnerFavorite, navigated = () => {}, alertFor = () => {}, send = () => {} }) {
  let lastQuery = "";
  let searchFailure = null;
  let searchTimer = null;
  let inFlight = null;
  let results = { coins: [], nfts: [], exchanges: [] };
  let resultTab = "coins";
  let detailRange = "7d";
  let returnTab = "exchange";

  const img = (url) => {
    const image = document.createElement("img");
    image.alt = "";
    image.loading = "lazy";
    if (url) image.src = "/img?u=" + encodeURIComponent(url);
    return image;
  };
  const text = (tag, value, className) => {
    const element = document.createElement(tag);
    if (className) element.className = className;
    element.textContent = value == null ? "" : String(value);
    return element;
  };

  // The favorites are the page's (app.js keeps them and says so); this view redraws its stars.
  async function toggleFavorite(id) {
    await toggleOwnerFavorite(id);
    updateDetailStar();
    renderResults();
  }

  // A favorite key to its coin route: `ID:KRW-BTC` → `/api/coins/KRW-BTC…?exchange=ID`.
  function coinURL(id, suffix, query) {
    const { exchange, market: coin } = splitKey(id);
    const params = new URLSearchParams(query);
    if (exchange !== DEFAULT_EXCHANGE) params.set("exchange", exchange);
    return `/api/coins/${encodeURIComponent(coin)}${suffix}?${params}`;
  }

  // ---------- Home: favorite cards and trending ----------

  async function showHome() {
    $("#info-home").hidden = false;
    renderCards();
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
        star.setAttribute("aria-pressed", String(state.favorites.has(item.id)));
        star.addEventListener("click", (event) => { event.stopPropagation(); toggleFavorite(item.id); });
        li.append(star);
        li.addEventListener("click", () => openDetail(item.id));
      }
      list.append(li);
    }
  }

  // ---------- Detail ----------

  function updateDetailStar() {
    const id = $("#coin-detail").dataset.coinId;
    $("#detail-star").setAttribute("aria-pressed", String(state.favorites.has(id)));
  }

  async function openDetail(id) {
    returnTab = state.tab;
    for (const section of ["#board-panel", "#info-panel", "#ranking-panel", "#compare-panel", "#portfolio-panel", "#alerts-panel", "#profile-panel"]) {
      $(section).hidden = true;
    }
    const detail = $("#coin-detail");
    detail.hidden = false;
    // Another coin's figures never stand under this one's name while it loads.
    if (detail.dataset.coinId !== id) {
      for (const selector of ["#detail-price", "#detail-change", "#detail-stats", "#detail-chart"]) $(selector).textContent = "";
      // The board already knows the coin's name: it stands from the first moment, not the code.
      const { exchange, market } = splitKey(id);
      const row = state.data.get(market);
      $("#detail-name").textContent = row && exchangeOf(row) === exchange ? rowName(row, state.lang) : market;
      loading($("#detail-stats"), t("loading"));
    }
    detail.dataset.coinId = id;
    // The bell sets an alert on a market (a CoinGecko coin has no price to watch here).
    $("#detail-alert").hidden = !marketOf(id);
    updateDetailStar();
    navigated();
    await loadDetail();
  }

  // ---------- Candles (markets only) ----------

  const candle = { mode: "line", interval: "1h", timer: null, last: 0 };

  // `KRW-BTC` or `ID:KRW-BTC`: a market has candles; a CoinGecko coin has the line only.
  function marketOf(id) {
    const { exchange, market: code } = splitKey(id);
    return /^[A-Z0-9]+-[A-Z0-9.]+$/.test(code) ? { code, exchange } : null;
  }

  // The chart drawn at the width it is shown at, so its labels keep their size on a phone.
  function chartWidth() {
    const width = Math.round($("#detail-chart").clientWidth) || 640;
    return String(Math.max(280, Math.min(1600, width)));
  }

  function indicators() {
    return $$("[data-indicator]").filter((box) => box.checked).map((box) => box.dataset.indicator).join(",");
  }

  async function loadCandles() {
    const market = marketOf($("#coin-detail").dataset.coinId);
    if (!market) return;
    candle.last = Date.now();
    const params = new URLSearchParams({ interval: candle.interval, count: "100", indicators: indicators(), exchange: market.exchange, lang: state.lang,
      width: chartWidth() });
    try {
      const svg = await get(`/api/candles/${encodeURIComponent(market.code)}/chart.svg?${params}`, { text: true });
      // SVG that Sise drew: numbers and fixed labels only.
      if (candle.mode === "candles") $("#detail-chart").innerHTML = svg;
    } catch (_) { /* the chart keeps its last drawing */ }
  }

  function showChartMode() {
    for (const button of $$("[data-chart-mode]")) button.setAttribute("aria-pressed", String(button.dataset.chartMode === candle.mode));
    for (const button of $$("[data-interval]")) button.setAttribute("aria-pressed", String(button.dataset.interval === candle.interval));
    $("#candle-controls").hidden = candle.mode !== "candles";
    $(".ranges").hidden = candle.mode === "candles";
  }

  // A tick of the market on screen: the newest candle follows (at most every two seconds).
  function tick(code, exchange) {
    const market = marketOf($("#coin-detail").dataset.coinId || "");
    if ($("#coin-detail").hidden || candle.mode !== "candles" || !market || market.code !== code || market.exchange !== exchange) return;
    if (candle.timer) return;
    const wait = Math.max(0, 2000 - (Date.now() - candle.last));
    candle.timer = setTimeout(() => { candle.timer = null; loadCandles(); }, wait);
  }

  async function loadDetail() {
    const id = $("#coin-detail").dataset.coinId;
    $("#chart-modes").hidden = !marketOf(id);
    if (!marketOf(id)) candle.mode = "line";
    showChartMode();
    for (const button of $$("[data-range]")) button.setAttribute("aria-pressed", String(button.dataset.range === detailRange));
    $("#detail-error").hidden = true;
    try {
      const [body, chart] = await Promise.all([
        get(coinURL(id, "", { range: detailRange })),
        get(coinURL(id, "/chart.svg", { range: detailRange, width: chartWidth() }), { text: true }).catch(() => null),
      ]);
      $("#detail-name").textContent = `${body.name} ${body.symbol}`;
      $("#detail-price").textContent = body.display.price;
      const change = $("#detail-change");
      change.textContent = body.display.changeRate;
      change.className = body.display.tone;
      // The chart is SVG that Sise drew (labels escaped on the server).
      if (candle.mode === "candles") loadCandles();
      else if (chart !== null) $("#detail-chart").innerHTML = chart;
      const stats = $("#detail-stats");
      stats.textContent = "";
      const d = body.display;
      const rows = [[t("high24h"), d.high24h], [t("low24h"), d.low24h], [t("ath"), d.ath], [t("atl"), d.atl],
                    [t("marketCap"), d.marketCap], [t("volume"), d.tradeValue], [t("updated"), d.lastUpdated]];
      for (const [label, value] of rows) {
        if (value == null) continue;
        stats.append(text("dt", label), text("dd", value));
      }
      if (marketOf(id)) syncDepth(); else stopDepth();
    } catch (error) {
      // The page says why in place of the coin (an unknown market, the server out of reach), with
      // 뒤로 above it — never a blank page of range buttons.
      showDetailFailure(id, error.fromServer ? error.message : t("detailFailed"));
    }
  }

  function showDetailFailure(id, message) {
    $("#detail-name").textContent = id;
    for (const selector of ["#detail-price", "#detail-change", "#detail-stats"]) $(selector).textContent = "";
    $("#detail-chart").textContent = "";
    $(".ranges").hidden = true;
    $("#chart-modes").hidden = true;
    $("#candle-controls").hidden = true;
    const note = $("#detail-error");
    note.textContent = message;
    note.hidden = false;
  }

  // ---------- 호가 and 체결 (markets only) ----------

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

  function closeDetail() {
    stopDepth();
    $("#coin-detail").hidden = true;
    selectTab(returnTab);
  }

  // ---------- Wiring ----------

  $("#coin-search").addEventListener("input", onSearchInput);
  for (const button of $$("[data-result-tab]")) {
    button.addEventListener("click", () => {
      resultTab = button.dataset.resultTab;
      for (const other of $$("[data-result-tab]")) other.setAttribute("aria-selected", String(other === button));
      renderResults();
    });
  }
  for (const button of $$("[data-range]")) {
    button.addEventListener("click", () => { detailRange = button.dataset.range; loadDetail(); });
  }
  for (const button of $$("[data-chart-mode]")) {
    button.addEventListener("click", () => {
      candle.mode = button.dataset.chartMode;
      showChartMode();
      loadDetail();
    });
  }
  for (const button of $$("[data-interval]")) {
    button.addEventListener("click", () => { candle.interval = button.dataset.interval; showChartMode(); loadCandles(); });
  }
  for (const box of $$("[data-indicator]")) box.addEventListener("change", loadCandles);
  $("#detail-back").addEventListener("click", closeDetail);
  $("#detail-star").addEventListener("click", () => toggleFavorite($("#coin-detail").dataset.coinId));
  $("#detail-alert").addEventListener("click", () => {
    const market = marketOf($("#coin-detail").dataset.coinId || "");
    if (market) alertFor(market.exchange, market.code, $("#detail-name").textContent);
  });

  function applyLanguage() {
    const words = { line: "chartLine", candles: "chartCandles" };
    for (const button of $$("[data-chart-mode]")) button.textContent = t(words[button.dataset.chartMode]);
    $(".intervals").setAttribute("aria-label", t("chartInterval"));
    $(".indicators").setAttribute("aria-label", t("chartIndicators"));
    $("#book-title").textContent = t("orderbookTitle");
    $("#tape-title").textContent = t("tradesTitle");
    $("#detail-alert").setAttribute("aria-label", t("alertSet"));
    $("#detail-alert").title = t("alertSet");
  }

  document.addEventListener("visibilitychange", syncDepth);

  return { showHome, openDetail, tick, applyLanguage, syncDepth, socketChanged, pushed };
}
