// The 포트폴리오 tab: transactions in, positions and P&L at live prices out. The server values
// and formats everything (decimal strings, display texts); the page only lays them out. While
// the tab is open the socket streams the portfolio (`{"type":"portfolio",…}`) as prices move.
import { setupPicker } from "./picker.js";
import { showFormError, clearFieldErrors, onSubmit } from "./forms.js";
import { loading, loaded, failed } from "./loading.js";
import { setupTax } from "./tax.js";
import { setupExchangeAccounts } from "./accounts.js";

const $ = (selector, root = document) => root.querySelector(selector);
// The holdings' columns → their words.
const HOLDING_HEADS = { market: "market", quantity: "quantity", averagePrice: "averagePrice", price: "price", value: "valuation",
  unrealizedPnl: "unrealizedPnl", returnRate: "returnRate" };

export function setupPortfolio({ t, toast, state, call, send }) {
  let open = false;
  const picker = setupPicker($("#tx-market"), $("#tx-exchange"), { t, state });
  const tax = setupTax({ t, state, call });
  const accounts = setupExchangeAccounts({ t, toast, state, call });
  // 보유자산 | 세금 | 거래소 계정: one view of the portfolio at a time.
  function showView(view) {
    for (const button of document.querySelectorAll("[data-portfolio-view]")) button.setAttribute("aria-selected", String(button.dataset.portfolioView === view));
    $("#portfolio-holdings").hidden = view !== "holdings";
    $("#portfolio-tax").hidden = view !== "tax";
    $("#portfolio-accounts").hidden = view !== "accounts";
    tax.show(view === "tax");
    accounts.show(view === "accounts");
  }
  for (const button of document.querySelectorAll("[data-portfolio-view]")) button.addEventListener("click", () => showView(button.dataset.portfolioView));

  function cell(text, col, className) {
    const td = document.createElement("td");
    td.dataset.col = col;
    if (className) td.className = className;
    td.textContent = text;
    return td;
  }

  // `이더리움 · Bithumb`: the coin's name on its exchange in the page's language (its market code
  // when the board does not list it), a quote other than KRW named, and the exchange.
  function holdingName(row) {
    const [quote] = row.market.split("-");
    const name = (state.lang === "en" ? row.englishName : row.koreanName) || row.koreanName;
    const coin = name ? (quote === "KRW" ? name : `${name} (${quote})`) : row.market;
    const button = document.querySelector(`#exchanges [data-exchange="${CSS.escape(row.exchange)}"]`);
    return `${coin} · ${button ? button.textContent : row.exchange}`;
  }

  const palette = ["#3b82f6", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6", "#ec4899", "#14b8a6", "#f97316", "#64748b"];

  // A donut of the allocation: one circle per position, dashed to its share — and its legend
  // beside it (each colour's holding and share), so no one has to hover to read it.
  function donut(positions) {
    const svg = $("#portfolio-donut");
    svg.replaceChildren();
    const legend = $("#portfolio-legend");
    legend.replaceChildren();
    const ns = "http://www.w3.org/2000/svg";
    const ring = document.createElementNS(ns, "circle");
    Object.entries({ cx: 21, cy: 21, r: 15.915, fill: "none", stroke: "var(--line, #ddd)", "stroke-width": 6 }).forEach(([k, v]) => ring.setAttribute(k, v));
    svg.append(ring);
    let offset = 25;
    positions.filter((p) => p.allocation > 0).forEach((p, index) => {
      const share = p.allocation * 100;
      const arc = document.createElementNS(ns, "circle");
      Object.entries({ cx: 21, cy: 21, r: 15.915, fill: "none", stroke: palette[index % palette.length], "stroke-width": 6,
        "stroke-dasharray": `${share} ${100 - share}`, "stroke-dashoffset": offset }).forEach(([k, v]) => arc.setAttribute(k, v));
      arc.dataset.market = p.market;
      const title = document.createElementNS(ns, "title");
      title.textContent = `${holdingName(p)} ${share.toFixed(1)}%`;
      arc.append(title);
      svg.append(arc);
      const item = document.createElement("li");
      item.dataset.market = p.market;
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = palette[index % palette.length];
      const name = document.createElement("span");
      name.className = "legend-name";
      name.textContent = holdingName(p);
      const part = document.createElement("span");
      part.className = "num";
      part.textContent = `${share.toFixed(1)}%`;
      item.append(swatch, name, part);
      legend.append(item);
      offset = (offset - share + 100) % 100;
    });
  }

  function render(report) {
    loaded($("#portfolio-rows"));
    const held = (report.positions || []).filter((p) => Number(p.quantity) > 0);
    const body = $("#portfolio-rows");
    // Rows stay in place while their figures change (a screen reader keeps its spot).
    const existing = new Map([...body.children].map((tr) => [`${tr.dataset.exchange}:${tr.dataset.market}`, tr]));
    const rows = held.map((p) => {
      const key = `${p.exchange}:${p.market}`;
      let tr = existing.get(key);
      if (!tr) {
        tr = document.createElement("tr");
        tr.dataset.market = p.market;
        tr.dataset.exchange = p.exchange;
        tr.append(cell("", "market"), cell("", "quantity", "num"),
          cell("", "averagePrice", "num"), cell("", "price", "num"), cell("", "value", "num"), cell("", "unrealizedPnl", "num"),
          cell("", "returnRate", "num"));
      }
      tr.dataset.stale = String(p.stale);
      const d = p.display;
      const set = (col, text, className) => {
        const td = tr.querySelector(`[data-col="${col}"]`);
        if (td.textContent !== text) td.textContent = text;
        td.className = className;
        // A phone shows a holding as a card: each figure under its column's name.
        td.dataset.label = t(HOLDING_HEADS[col]);
      };
      set("market", holdingName(p), "");
      set("quantity", d.quantity, "num");
      set("averagePrice", d.averagePrice, "num");
      set("price", d.price + (p.stale ? " *" : ""), "num" + (p.stale ? " stale" : ""));
      set("value", d.value, "num");
      set("unrealizedPnl", d.unrealizedPnl, `num ${d.tone}`);
      set("returnRate", d.returnRate, `num ${d.tone}`);
      return tr;
    });
    body.replaceChildren(...rows);
    $("#portfolio-empty").hidden = held.length > 0;
    const totals = report.totals;
    const list = $("#portfolio-totals");
    list.replaceChildren();
    const figures = [["invested", totals.display.invested], ["valuation", totals.display.value],
      ["unrealizedPnl", totals.display.unrealizedPnl], ["returnRate", totals.display.returnRate], ["realizedPnl", totals.display.realizedPnl]];
    for (const [key, value] of figures) {
      const dt = document.createElement("dt");
      dt.textContent = t(key);
      const dd = document.createElement("dd");
      dd.dataset.total = key;
      if (key === "unrealizedPnl" || key === "returnRate") dd.className = totals.display.tone;
      dd.textContent = value + (totals.stale && key === "valuation" ? " *" : "");
      list.append(dt, dd);
    }
    donut(held);
  }

  let transactions = [];

  async function loadTransactions() {
    try {
      transactions = (await call("GET", "/api/portfolio/transactions")).transactions.slice().reverse();
      renderTransactions();
    } catch (_) { /* the table keeps what it had */ }
  }

  // Newest first: when (date over time), what (the coin on its exchange, the kind, the note),
  // how much at what price, and a 삭제 within reach of a thumb.
  function renderTransactions() {
    const rows = $("#portfolio-transactions");
    rows.replaceChildren();
    $("#portfolio-transactions-table").hidden = transactions.length === 0;
    for (const tx of transactions) {
      const tr = document.createElement("tr");
      tr.dataset.id = tx.id;
      tr.dataset.market = tx.market;
      tr.dataset.exchange = tx.exchange;
      const [date, time] = (tx.when || "").split(" ");
      const at = cell(date, "at");
      at.append(document.createElement("br"), time || "");
      const what = cell("", "market");
      const kind = { buy: "txBuy", sell: "txSell", deposit: "txDeposit", withdraw: "txWithdraw" }[tx.type];
      const tag = document.createElement("span");
      tag.className = `tx-kind ${tx.type}`;
      tag.textContent = t(kind);
      what.append(tag, " ", holdingName(tx));
      if (tx.note) {
        const note = document.createElement("small");
        note.className = "tx-note";
        note.textContent = tx.note;
        what.append(document.createElement("br"), note);
      }
      const remove = document.createElement("button");
      remove.type = "button";
      remove.dataset.action = "delete-transaction";
      remove.textContent = t("delete");
      const td = document.createElement("td");
      td.dataset.col = "delete";
      td.append(remove);
      tr.append(at, what, cell(tx.display.quantity, "quantity", "num"), cell(tx.display.price, "price", "num"), td);
      rows.append(tr);
    }
  }

  async function refresh() {
    if (!$("#portfolio-rows").children.length && $("#portfolio-empty").hidden) loading($("#portfolio-rows"), t("loading"));
    try {
      render(await call("GET", "/api/portfolio"));
    } catch (error) {
      // The stream follows; a table that never had a row says why it stays empty.
      if (document.querySelector('.loading-row[data-loading-for="portfolio-rows"]')) failed($("#portfolio-rows"), error, t("loadFailed"));
    }
    loadTransactions();
    tax.refresh();
    accounts.refresh();
  }

  function showError(error) {
    const note = $("#tx-error");
    if (error) { showFormError($("#portfolio-form"), error, note); return; }
    clearFieldErrors($("#portfolio-form"));
    note.hidden = true;
  }

  onSubmit($("#portfolio-form"), async (event) => {
    const form = event.target;
    const market = form.market.value.trim().toUpperCase();
    const body = {
      type: form.type.value, exchange: form.exchange.value, market: market.includes("-") ? market : `KRW-${market}`,
      quantity: form.quantity.value.trim(), price: form.price.value.trim(), fee: form.fee.value.trim() || "0", note: form.note.value,
    };
    if (form.at.value) body.at = new Date(form.at.value).getTime();
    try {
      await call("POST", "/api/portfolio/transactions", JSON.stringify(body));
      showError(null);
      form.quantity.value = "";
      form.note.value = "";
      toast(t("transactionAdded"));
      refresh();
    } catch (error) { showError(error); }
  });

  $("#portfolio-transactions").addEventListener("click", async (event) => {
    const button = event.target.closest("[data-action=delete-transaction]");
    if (!button) return;
    const id = button.closest("tr").dataset.id;
    const gone = transactions.find((tx) => tx.id === id);
    try {
      await call("DELETE", `/api/portfolio/transactions/${encodeURIComponent(id)}`);
      // One tap deletes; the toast's 되돌리기 puts the same transaction back (as it was sent).
      toast(t("transactionRemoved"), { ms: 6000, action: gone && { label: t("transactionRestore"), run: () => restore(gone) } });
      refresh();
    } catch (error) { toast(error.message); }
  });

  async function restore(tx) {
    const body = { type: tx.type, exchange: tx.exchange, market: tx.market, quantity: tx.quantity, price: tx.price, fee: tx.fee,
      at: String(tx.at), note: tx.note };
    try {
      await call("POST", "/api/portfolio/transactions", JSON.stringify(body));
      toast(t("transactionRestored"));
      refresh();
    } catch (error) { toast(error.message); }
  }

  $("#portfolio-import").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      const text = await file.text();
      const json = text.trimStart().startsWith("{");
      const body = await call("POST", "/api/portfolio/import", text, json ? "application/json" : "text/csv");
      toast(body.message || t("portfolioImported", { count: body.imported }));
      refresh();
    } catch (error) { toast(error.message); }
    event.target.value = "";
  });

  function applyLanguage() {
    for (const label of document.querySelectorAll("#portfolio-panel [data-label]")) label.textContent = t(label.dataset.label);
    for (const th of document.querySelectorAll("#portfolio-panel .portfolio th[data-col]")) th.textContent = t(HOLDING_HEADS[th.dataset.col]);
    const txHeads = { at: "txTime", market: "txWhat", quantity: "quantity", price: "txUnitPrice", delete: "delete" };
    for (const th of document.querySelectorAll("#portfolio-transactions-table th[data-col]")) (th.firstElementChild || th).textContent = t(txHeads[th.dataset.col]);
    $("#portfolio-transactions-title").textContent = t("txHistory");
    renderTransactions();
    for (const option of $("#tx-type").options) option.textContent = t({ buy: "txBuy", sell: "txSell", deposit: "txDeposit", withdraw: "txWithdraw" }[option.value]);
    $("#portfolio-add-title").textContent = t("portfolioAdd");
    $("#tx-submit").textContent = t("portfolioAdd");
    $("#portfolio-export").textContent = t("exportCSV");
    $("#portfolio-empty").textContent = t("portfolioEmpty");
    $("#portfolio-donut").setAttribute("aria-label", t("allocation"));
    $("#portfolio-scroller").setAttribute("aria-label", t("tabPortfolio"));
    picker.applyLanguage();
    tax.refresh();
    accounts.refresh();
  }

  return {
    start() { open = true; send({ type: "portfolio", watch: true }); refresh(); },
    stop() { if (open) send({ type: "portfolio", watch: false }); open = false; },
    // The socket (re)connected: ask for the stream again while the tab is open.
    resume() { if (open) send({ type: "portfolio", watch: true }); },
    handle(message) { if (open) render(message); },
    refresh,
    applyLanguage,
  };
}
