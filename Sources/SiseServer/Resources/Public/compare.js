// The cross-exchange board: the server decides rows, order, gap and its ends; this draws
// them and asks again every second while the tab is open (the server reads its live boards).
// A row opens its coin; the search (초성 too) and the two sorts (gap, coin) are the server's.
import { get } from "./http.js";
import { loading, loaded, failed } from "./loading.js";
import { coinCell, fillCoinCell } from "./coin-parts.js";
import { setText, show } from "./dom-text.js";

const $ = (selector, root = document) => root.querySelector(selector);

export function setupCompare({ t, state, open = () => {} }) {
  // The columns the server wrote into the page, one per exchange it shows.
  const exchanges = Array.from(document.querySelectorAll("#compare-panel th[data-venue]"), (th) => th.dataset.venue);
  let timer = null;
  let inFlight = null;
  const view = { q: "", sort: "gap" };

  function cell(text, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = text;
    return td;
  }

  // Rows are kept by symbol and updated in place: a second's refresh neither flickers nor
  // loses a reader's place.
  const kept = new Map();

  function build(symbol) {
    const tr = document.createElement("tr");
    tr.dataset.compare = symbol;
    tr.tabIndex = 0;
    tr.append(coinCell());
    for (const exchange of exchanges) {
      const td = cell("", "num");
      td.dataset.venue = exchange;
      // The price, and the venue's premium under it.
      const premium = document.createElement("span");
      premium.className = "amount premium";
      td.append(document.createTextNode(""), premium);
      tr.append(td);
    }
    tr.append(cell("", "num gap"));
    tr.append(cell("", "num global"));
    return tr;
  }

  function fill(tr, row) {
    // The coin opens on the default exchange when it trades there, else where it is cheapest.
    tr.dataset.venue = row.display.prices[exchanges[0]] && row.display.prices[exchanges[0]] !== "-" ? exchanges[0] : (row.low || exchanges[0]);
    fillCoinCell(tr.firstElementChild, row.display.name, row.symbol);
    for (const td of tr.querySelectorAll("td[data-venue]")) {
      const exchange = td.dataset.venue;
      const price = row.display.prices[exchange] || "-";
      if (td.firstChild.nodeValue !== price) td.firstChild.nodeValue = price;
      const premium = (row.display.premiums && row.display.premiums[exchange]) || "-";
      const small = td.lastChild;
      show(small, premium !== "-");
      setText(small, premium === "-" ? "" : premium);
      td.classList.toggle("high", row.high === exchange);
      td.classList.toggle("low", row.low === exchange);
      const stale = Boolean(row.stale && row.stale[exchange]);
      td.classList.toggle("stale", stale);
      const title = stale ? t("staleVenue") : "";
      if (td.title !== title) td.title = title;
    }
    const gap = tr.querySelector("td.gap");
    setText(gap, row.tied ? t("samePrice") : row.display.gap);
    gap.classList.toggle("tied", Boolean(row.tied));
    setText(tr.lastElementChild, row.display.global || "-");
  }

  function render(rows) {
    const body = $("#compare-rows");
    loaded(body);
    const seen = new Set();
    let cursor = body.firstElementChild;
    for (const row of rows) {
      seen.add(row.symbol);
      let tr = kept.get(row.symbol);
      if (!tr) { tr = build(row.symbol); kept.set(row.symbol, tr); }
      fill(tr, row);
      if (tr !== cursor) body.insertBefore(tr, cursor); else cursor = cursor.nextElementSibling;
    }
    for (const [symbol, tr] of kept) {
      if (!seen.has(symbol)) { tr.remove(); kept.delete(symbol); }
    }
    const empty = $("#compare-empty");
    empty.hidden = rows.length > 0;
    empty.textContent = view.q ? t("empty") : t("compareEmpty");
  }

  function paintSort() {
    for (const th of document.querySelectorAll("#compare-panel th[data-compare-sort]")) {
      th.setAttribute("aria-sort", th.dataset.compareSort === view.sort ? (view.sort === "gap" ? "descending" : "ascending") : "none");
    }
  }

  document.querySelector("#compare-panel thead").addEventListener("click", (event) => {
    const th = event.target.closest("th[data-compare-sort]");
    if (!th || th.dataset.compareSort === view.sort) return;
    view.sort = th.dataset.compareSort;
    paintSort();
    refresh(true);
  });
  let searchTimer = null;
  $("#compare-search").addEventListener("input", (event) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => { view.q = event.target.value.trim(); refresh(true); }, 150);
  });
  const body = $("#compare-rows");
  body.addEventListener("click", (event) => {
    const tr = event.target.closest("tr[data-compare]");
    if (tr) open(tr.dataset.compare, tr.dataset.venue);
  });
  body.addEventListener("keydown", (event) => {
    const tr = event.target.closest("tr[data-compare]");
    if (tr && event.key === "Enter") open(tr.dataset.compare, tr.dataset.venue);
  });

  // The second's tick waits for an answer still on its way (on a slow network each tick would
  // otherwise cancel the last and nothing would ever show); a new search or sort replaces it.
  async function refresh(changed = false) {
    if (inFlight && !changed) return;
    if (inFlight) inFlight.abort();
    const controller = new AbortController();
    inFlight = controller;
    try {
      const query = new URLSearchParams({ lang: state.lang, sort: view.sort, q: view.q });
      render(await get(`/api/compare?${query}`, { signal: controller.signal }));
    } catch (error) {
      // The next round tries again; a table that never had a row says why it stays empty.
      if (error.name !== "AbortError" && !body.querySelector("tr[data-compare]")) failed(body, error, t("loadFailed"));
    } finally {
      if (inFlight === controller) inFlight = null;
    }
  }

  return {
    start() {
      clearInterval(timer);
      if (kept.size === 0) loading(body, t("loading"));
      paintSort();
      refresh();
      timer = setInterval(() => refresh(), 1000);
    },
    stop() {
      clearInterval(timer);
      timer = null;
    },
  };
}
