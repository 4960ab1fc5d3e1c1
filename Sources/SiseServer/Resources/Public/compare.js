// The cross-exchange board: the server decides rows, order, gap and its ends; this draws
// them and asks again every second while the tab is open (the server reads its live boards).
import { get } from "./http.js";

const $ = (selector, root = document) => root.querySelector(selector);

export function setupCompare({ t, state }) {
  // The columns the server wrote into the page, one per exchange it shows.
  const exchanges = Array.from(document.querySelectorAll("#compare-panel th[data-venue]"), (th) => th.dataset.venue);
  let timer = null;
  let inFlight = null;

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
    const name = document.createElement("td");
    const title = document.createElement("span");
    title.className = "name";
    const code = document.createElement("span");
    code.className = "symbol";
    name.append(title, code);
    tr.append(name);
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
    const [title, code] = tr.firstElementChild.children;
    title.textContent = row.display.name;
    code.textContent = row.symbol;
    for (const td of tr.querySelectorAll("td[data-venue]")) {
      const exchange = td.dataset.venue;
      td.firstChild.nodeValue = row.display.prices[exchange] || "-";
      const premium = (row.display.premiums && row.display.premiums[exchange]) || "-";
      const small = td.lastChild;
      small.hidden = premium === "-";
      if (small.textContent !== (small.hidden ? "" : premium)) small.textContent = small.hidden ? "" : premium;
      td.classList.toggle("high", row.high === exchange);
      td.classList.toggle("low", row.low === exchange);
      const stale = Boolean(row.stale && row.stale[exchange]);
      td.classList.toggle("stale", stale);
      td.title = stale ? t("staleVenue") : "";
    }
    const gap = tr.querySelector("td.gap");
    gap.textContent = row.tied ? t("samePrice") : row.display.gap;
    gap.classList.toggle("tied", Boolean(row.tied));
    tr.lastElementChild.textContent = row.display.global || "-";
  }

  function render(rows) {
    const body = $("#compare-rows");
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
    empty.textContent = t("compareEmpty");
  }

  async function refresh() {
    if (inFlight) inFlight.abort();
    const controller = new AbortController();
    inFlight = controller;
    try {
      render(await get(`/api/compare?lang=${state.lang}`, { signal: controller.signal }));
    } catch (_) { /* the next round tries again; the status chip tells about trouble */ }
  }

  return {
    start() {
      clearInterval(timer);
      refresh();
      timer = setInterval(refresh, 1000);
    },
    stop() {
      clearInterval(timer);
      timer = null;
    },
  };
}
