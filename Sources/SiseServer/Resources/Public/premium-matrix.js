// The 김프 tab: the premium matrix — every KRW coin on each Korean exchange against one global
// venue (Binance, OKX or Bybit), the cells as the server decided them (a figure only when both
// legs are fresh and close; `…` stale, `?` another coin under the ticker, `-` not listed). A
// column's head sorts by that exchange's premium (high, low, then the default: trade value); a
// row opens its coin — or, with the executable switch on, its executable premium under it
// (matrix-executable.js). Asked again every three seconds while the tab is open.
import { get } from "./http.js";
import { loading, loaded, failed } from "./loading.js";
import { coinCell, fillCoinCell } from "./coin-parts.js";
import { setText } from "./dom-text.js";
import { createMatrixExecutable } from "./matrix-executable.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

// A cell without a figure says why when tapped or hovered (its state → the words' key).
const WHY = { missing: "matrixCellMissing", unavailable: "matrixCellUnavailable", stale: "matrixCellStale", doubt: "matrixCellDoubt",
  noRate: "matrixCellNoRate" };

// `moved()`: the venue changed (the address names it: `/premium?venue=okx`).
export function setupMatrix({ t, state, open = () => {}, moved = () => {} }) {
  // The columns the server wrote into the page, one per exchange it shows.
  const exchanges = $$("#premium-panel th[data-matrix-exchange]").map((th) => th.dataset.matrixExchange);
  const view = { venue: $("#matrix-venue").value, column: null, order: "desc" };
  const body = $("#matrix-rows");
  const kept = new Map();
  const executable = createMatrixExecutable({ t, state, exchanges });
  const listedOn = new Map(); // symbol → the exchanges where it trades in KRW
  let timer = null;
  let inFlight = null;
  let problems = {};   // venue → why its prices could not be read, as the last answer said

  function build(symbol) {
    const tr = document.createElement("tr");
    tr.dataset.matrix = symbol;
    tr.tabIndex = 0;
    tr.append(coinCell());
    for (const exchange of exchanges) {
      const td = document.createElement("td");
      td.className = "num premium";
      td.dataset.exchange = exchange;
      tr.append(td);
    }
    return tr;
  }

  function fill(tr, row) {
    fillCoinCell(tr.firstElementChild, row.name, row.symbol);
    // The coin opens where it trades first among the columns.
    tr.dataset.exchange = exchanges.find((exchange) => row.krwPrices[exchange] != null) || exchanges[0];
    listedOn.set(row.symbol, exchanges.filter((exchange) => row.krwPrices[exchange] != null));
    for (const td of tr.querySelectorAll("td[data-exchange]")) {
      const cell = (row.cells[td.dataset.exchange] || {})[view.venue];
      setText(td, cell ? cell.display : "-");
      td.dataset.state = cell ? cell.state : "missing";
      const why = !cell || cell.premium === null ? t(WHY[td.dataset.state] || "matrixCellMissing") : "";
      const reason = td.dataset.state === "unavailable" && problems[view.venue] ? ` (${problems[view.venue]})` : "";
      if (why) td.title = why + reason; else td.removeAttribute("title");
      td.className = "num premium " + (cell && cell.tone ? cell.tone : "");
    }
  }

  function render(answer) {
    loaded(body);
    problems = Object.fromEntries(answer.venues.filter((entry) => entry.problem).map((entry) => [entry.id, entry.problem]));
    const seen = new Set();
    let cursor = body.firstElementChild;
    for (const row of answer.rows) {
      seen.add(row.symbol);
      let tr = kept.get(row.symbol);
      if (!tr) { tr = build(row.symbol); kept.set(row.symbol, tr); }
      fill(tr, row);
      if (tr !== cursor) body.insertBefore(tr, cursor); else cursor = cursor.nextElementSibling;
    }
    for (const [symbol, tr] of kept) {
      if (!seen.has(symbol)) { tr.remove(); kept.delete(symbol); }
    }
    executable.place(kept);
    const venue = answer.venues.find((entry) => entry.id === view.venue);
    const words = [answer.display.fx, answer.display.basis, answer.display.fallback, venue && venue.problem].filter(Boolean);
    $("#matrix-source").textContent = answer.unavailable || words.join(" · ");
    const empty = $("#matrix-empty");
    empty.hidden = answer.rows.length > 0;
    empty.textContent = t("empty");
  }

  function paintSort() {
    for (const th of $$("#premium-panel th[data-matrix-exchange]")) {
      const sorted = th.dataset.matrixExchange === view.column;
      th.setAttribute("aria-sort", sorted ? (view.order === "desc" ? "descending" : "ascending") : "none");
    }
  }

  // A tick waits for an answer still on its way; a new venue or sort replaces it.
  async function refresh(changed = false) {
    if (inFlight && !changed) return;
    if (inFlight) inFlight.abort();
    const controller = new AbortController();
    inFlight = controller;
    try {
      const query = new URLSearchParams({ lang: state.lang, venue: view.venue, limit: "200" });
      if (view.column) {
        query.set("sort", "premium");
        query.set("column", view.column);
        query.set("order", view.order);
      }
      render(await get(`/api/premium/matrix?${query}`, { signal: controller.signal }));
    } catch (error) {
      if (error.name !== "AbortError" && !body.querySelector("tr[data-matrix]")) failed(body, error, t("loadFailed"));
    } finally {
      if (inFlight === controller) inFlight = null;
    }
  }

  $("#premium-panel thead").addEventListener("click", (event) => {
    const th = event.target.closest("th[data-matrix-exchange]");
    if (!th) return;
    const exchange = th.dataset.matrixExchange;
    // High to low, low to high, then back to trade value.
    if (view.column !== exchange) { view.column = exchange; view.order = "desc"; }
    else if (view.order === "desc") view.order = "asc";
    else view.column = null;
    paintSort();
    refresh(true);
  });
  function setVenue(venue) {
    if (view.venue === venue || !$$("#matrix-venue option").some((option) => option.value === venue)) return;
    view.venue = venue;
    $("#matrix-venue").value = venue;
    executable.closeAll();
    if (timer) refresh(true);
  }
  $("#matrix-venue").addEventListener("change", (event) => {
    setVenue(event.target.value);
    moved();
  });

  // 테더 김프 above the matrix: each exchange's KRW-USDT over the official rate.
  async function loadTether() {
    try {
      const answer = await get(`/api/premium/usdt?lang=${state.lang}`);
      const list = $("#matrix-tether-rows");
      list.replaceChildren(...answer.rows.map((row) => {
        const item = document.createElement("li");
        item.dataset.exchange = row.exchange;
        item.dataset.state = row.state;
        const name = document.createElement("span");
        name.textContent = row.display.exchange || row.exchange;
        const figure = document.createElement("strong");
        figure.textContent = row.premium === null ? (row.display.problem || "-") : row.display.premium;
        if (row.premium !== null && row.display.tone) figure.className = row.display.tone;
        item.append(name, " ", figure);
        return item;
      }));
      $("#matrix-tether-note").textContent = answer.unavailable || answer.display.official || "";
    } catch (_) { /* keeps what it showed */ }
  }
  // A row opens its coin, or its executable premium while the switch is on.
  function choose(tr) {
    if ($("#matrix-executable").checked) executable.toggle(tr, view.venue, listedOn.get(tr.dataset.matrix) || []);
    else open(tr.dataset.matrix, tr.dataset.exchange);
  }
  body.addEventListener("click", (event) => {
    const tr = event.target.closest("tr[data-matrix]");
    if (tr) choose(tr);
  });
  body.addEventListener("keydown", (event) => {
    const tr = event.target.closest("tr[data-matrix]");
    if (tr && event.key === "Enter") choose(tr);
  });
  $("#matrix-executable").addEventListener("change", (event) => { if (!event.target.checked) executable.closeAll(); });

  return {
    start() {
      clearInterval(timer);
      if (kept.size === 0) loading(body, t("loading"));
      paintSort();
      refresh();
      loadTether();
      let beat = 0;
      timer = setInterval(() => { refresh(); if (++beat % 3 === 0) loadTether(); }, 3000);
    },
    get venue() { return view.venue; },
    setVenue,
    stop() {
      clearInterval(timer);
      timer = null;
    },
  };
}
