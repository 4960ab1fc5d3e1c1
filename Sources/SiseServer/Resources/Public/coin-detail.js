// The coin page: a market of an exchange (or a CoinGecko coin), its figures, its chart (a line
// over a range, or candles with indicators) and — for a market — its book and tape.
import { splitKey, exchangeOf, rowName } from "./exchanges.js";
import { get } from "./http.js";
import { showStar } from "./stars.js";
import { loading } from "./loading.js";
import { coinURL, marketOf, text } from "./coin-parts.js";
import { createPremiumHistory } from "./premium-history.js";
import { createCoinWallets } from "./coin-wallets.js";
import { createExecutablePremium } from "./executable-premium.js";
import { showNotices } from "./notices-list.js";
import { showEvents } from "./coin-events.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

// `page`: { t, state (read), depth, selectTab, toggleFavorite(id), navigated(), alertFor(exchange, market, name) }.
export function setupCoinDetail({ t, state, depth, selectTab, toggleFavorite, navigated, alertFor }) {
  const { syncDepth, stopDepth } = depth;
  let detailRange = "7d";
  let returnTab = "exchange";
  const premiumHistory = createPremiumHistory({ t, state });
  const wallets = createCoinWallets({ t, state });
  const executable = createExecutablePremium({ t, state });

  function updateDetailStar() {
    const id = $("#coin-detail").dataset.coinId;
    showStar($("#detail-star"), state.isFavorite(id));
  }

  async function openDetail(id) {
    returnTab = state.tab;
    for (const section of ["#board-panel", "#info-panel", "#ranking-panel", "#compare-panel", "#premium-panel", "#portfolio-panel", "#alerts-panel",
      "#profile-panel"]) {
      $(section).hidden = true;
    }
    const detail = $("#coin-detail");
    detail.hidden = false;
    // Another coin's figures never stand under this one's name while it loads.
    if (detail.dataset.coinId !== id) {
      for (const selector of ["#detail-price", "#detail-change", "#detail-stats", "#detail-chart"]) $(selector).textContent = "";
      // The board already knows the coin's name: it stands from the first moment, not the code.
      const { exchange, market } = splitKey(id);
      const row = state.row(market);
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
      // The market's caution, in words, as the board's row has it (its grade and reasons).
      const market = marketOf(id);
      const row = market && state.row(market.code);
      if (row && row.exchange === market.exchange && row.cautionReasons && row.cautionReasons.length) {
        const grade = { warning: t("cautionStepWarning"), danger: t("cautionStepDanger") }[row.cautionLevel] || t("caution");
        rows.push([t("cautionLong"), `${grade}: ${row.cautionReasons.join(", ")}`]);
      }
      for (const [label, value] of rows) {
        if (value == null) continue;
        const dd = text("dd", value);
        // 거래대금 in the board's unit at this width: in full where there is room, short on a phone.
        if (label === t("volume") && d.tradeValueShort) {
          dd.textContent = "";
          dd.classList.add("value-pair");
          dd.append(text("span", d.tradeValue, "long"), text("span", d.tradeValueShort, "short"));
        }
        stats.append(text("dt", label), dd);
      }
      if (marketOf(id)) syncDepth(); else stopDepth();
      premiumHistory.show(id);
      wallets.show(id);
      executable.show(id);
      // The notices naming this coin, on every exchange.
      const coin = marketOf(id);
      if (coin) {
        showNotices($("#coin-notices-list"), $("#coin-notices-note"), `symbol=${encodeURIComponent(coin.code.split("-")[1])}&limit=10&lang=${state.lang}`, t)
          .then(() => { $("#coin-notices").hidden = false; }).catch(() => { $("#coin-notices").hidden = true; });
        // What changed for this coin on every exchange, with the price then and later.
        showEvents($("#coin-events"), $("#coin-events-list"), coin.code.split("-")[1], t, state.lang)
          .catch(() => { $("#coin-events").hidden = true; });
      } else {
        $("#coin-notices").hidden = true;
        $("#coin-events").hidden = true;
      }
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

  function closeDetail() {
    stopDepth();
    wallets.hide();
    executable.hide();
    $("#coin-detail").hidden = true;
    selectTab(returnTab);
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
    $("#coin-notices-title").textContent = t("noticesTitle");
    $("#coin-events-title").textContent = t("eventsTitle");
    wallets.applyLanguage();
    executable.applyLanguage();
  }

  return { openDetail, updateDetailStar, tick, applyLanguage };
}
