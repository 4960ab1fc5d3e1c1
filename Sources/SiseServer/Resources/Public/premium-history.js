// The coin page's 김프 추이: how this market's premium moved (against Binance; KRW-USDT: its 테더
// 김프 against the official rate), as the server kept and drew it — a day, a week or 90 days.
import { get } from "./http.js";
import { marketOf } from "./coin-parts.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

export function createPremiumHistory({ t, state }) {
  let range = "24h";
  let shown = null;

  async function load() {
    const section = $("#premium-history");
    const id = shown;
    const market = id && marketOf(id);
    if (!market || !market.code.startsWith("KRW-")) { section.hidden = true; return; }
    const query = new URLSearchParams({ exchange: market.exchange, symbol: market.code.slice(4), venue: "binance", range, lang: state.lang });
    for (const button of $$("[data-history-range]")) button.setAttribute("aria-pressed", String(button.dataset.historyRange === range));
    try {
      const body = await get(`/api/premium/history?${query}`);
      if (shown !== id) return;
      section.hidden = false;
      $("#premium-history-title").textContent = body.display.title;
      $("#premium-history-last").textContent = body.display.last || "";
      // The server's own SVG (numbers only).
      $("#premium-history-chart").innerHTML = body.display.chart || "";
      const note = $("#premium-history-note");
      note.textContent = body.display.empty || "";
      note.hidden = !body.display.empty;
      section.dataset.points = String(body.points.length);
    } catch (_) {
      section.hidden = true;
    }
  }

  for (const button of $$("[data-history-range]")) {
    button.addEventListener("click", () => { range = button.dataset.historyRange; load(); });
  }

  return {
    show(id) { shown = id; load(); },
    hide() { shown = null; $("#premium-history").hidden = true; },
  };
}
