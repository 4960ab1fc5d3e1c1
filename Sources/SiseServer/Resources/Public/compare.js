// The cross-exchange board: the server decides rows, order, gap and its ends; this draws
// them and asks again every second while the tab is open (the server reads its live boards).
const $ = (selector, root = document) => root.querySelector(selector);

export function setupCompare({ t, state }) {
  const exchanges = ["upbit", "korbit", "bithumb"];
  let timer = null;
  let inFlight = null;

  function cell(text, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = text;
    return td;
  }

  function render(rows) {
    const body = $("#compare-rows");
    body.textContent = "";
    for (const row of rows) {
      const tr = document.createElement("tr");
      tr.dataset.compare = row.symbol;
      const name = document.createElement("td");
      const title = document.createElement("span");
      title.className = "name";
      title.textContent = state.lang === "en" ? row.englishName || row.koreanName : row.koreanName || row.englishName;
      const symbol = document.createElement("span");
      symbol.className = "symbol";
      symbol.textContent = row.symbol;
      name.append(title, symbol);
      tr.append(name);
      for (const exchange of exchanges) {
        const price = row.display.prices[exchange];
        const td = cell(price || "-", "num");
        td.dataset.venue = exchange;
        if (row.high === exchange) td.classList.add("high");
        if (row.low === exchange) td.classList.add("low");
        if (row.stale && row.stale[exchange]) { td.classList.add("stale"); td.title = t("staleVenue"); }
        tr.append(td);
      }
      tr.append(cell(row.display.gap, "num gap"));
      body.append(tr);
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
      const response = await fetch(`/api/compare?lang=${state.lang}`, { signal: controller.signal, headers: { "Accept": "application/json" } });
      if (response.ok) render(await response.json());
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
