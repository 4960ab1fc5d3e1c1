// The board's 김프: the market's premium bar (the median of the top 20 by trade value, its
// sources and the day's curve, as the server words and draws them; every ten seconds while a KRW
// board shows) and the 김프 column the person switches on or off.
import { get } from "./http.js";

const $ = (selector, root = document) => root.querySelector(selector);

// `page`: { lang(), view } (read only).
export function createPremiumBar(page) {
  async function load() {
    const bar = $("#premium-bar");
    const view = page.view;
    // A BTC or USDT board has no 김프 column: its switch is neither pressed nor pressable there.
    const toggle = $("#premium-column");
    toggle.disabled = view.quote !== "KRW";
    toggle.setAttribute("aria-pressed", String(view.quote === "KRW" && columnShown()));
    if (view.quote !== "KRW" || view.tab === "ranking" || view.tab === "info") { bar.hidden = true; return; }
    let body;
    // Against the venue the board's 김프 column reads, so the bar and the column name the same one.
    const asked = new URLSearchParams({ exchange: view.exchange, symbols: "BTC", venue: view.venue, lang: page.lang() });
    try { body = await get(`/api/premium?${asked}`); } catch (_) { bar.hidden = true; return; }
    try {
      const figure = $("#market-premium");
      figure.textContent = body.display.marketPremium;
      figure.className = body.display.tone || "";
      // 테더 김프: this exchange's KRW-USDT over the official rate (its state when there is none).
      const tether = $("#tether-premium");
      const row = body.tether;
      tether.textContent = row ? (row.premium === null ? (row.display.problem || "-") : row.display.premium) : "-";
      tether.className = row && row.premium !== null ? row.display.tone : "";
      tether.dataset.state = row ? row.state : "unavailable";
      $("#tether-chart").innerHTML = body.display.tetherChart || "";
      $("#premium-source").textContent = body.unavailable || body.display.source;
      // The day's curve: the server's own SVG (numbers only).
      $("#premium-chart").innerHTML = body.display.chart || "";
      bar.hidden = false;
    } catch (_) { /* the bar keeps its last figure */ }
  }

  // The column, kept on the device; unset, the layout decides (shown where there is room). The
  // switch says what is on screen.
  function columnShown() {
    return getComputedStyle($("#board th.premium-col")).display !== "none";
  }

  function setColumn(on) {
    if (on !== undefined) localStorage.setItem("sise.premiumColumn", on ? "on" : "off");
    const saved = localStorage.getItem("sise.premiumColumn");
    $("#board").dataset.premium = saved === "on" || saved === "off" ? saved : "auto";
    $("#premium-column").setAttribute("aria-pressed", String(columnShown()));
  }
  matchMedia("(max-width: 374px)").addEventListener("change", () => setColumn());

  return {
    load,
    start() {
      setColumn();
      load();
      setInterval(load, 10000);
    },
    // The column switched by the person: on if it was off on screen, off if it was on.
    toggleColumn() { setColumn(!columnShown()); },
  };
}
