// The portfolio's 세금 tab: the year's Korean tax preview as the server computes it
// (`GET /api/tax/{year}`) — the totals, a card per coin (every figure on its own line, so none is
// ever cut), the warnings and the notice. The page formats nothing: it lays out `display` texts.
import { appendPair } from "./dom-text.js";

const $ = (selector, root = document) => root.querySelector(selector);

export function setupTax({ t, state, call }) {
  const year = $("#tax-year");
  const method = $("#tax-method");
  let shown = false;
  let asked = 0;

  // This year in Korea (2027 before it begins) and the years after 2027 up to it.
  function fillYears() {
    if (year.options.length) return;
    const seoul = new Date(Date.now() + 9 * 3600 * 1000).getUTCFullYear();
    for (let y = Math.max(2027, seoul); y >= 2027; y--) {
      const option = document.createElement("option");
      option.value = String(y);
      option.textContent = String(y);
      year.append(option);
    }
  }

  function pair(list, label, value, key) {
    appendPair(list, label, value, { data: key ? { total: key } : {} });
  }

  function won(text) { return t("tax.won", { value: text }); }

  function card(coin) {
    const d = coin.display;
    const item = document.createElement("li");
    item.dataset.coin = coin.coin;
    const head = document.createElement("div");
    head.className = "tax-coin-head";
    const name = document.createElement("strong");
    name.textContent = coin.coin;
    const gain = document.createElement("span");
    gain.className = `num ${d.tone}`;
    gain.dataset.field = "gain";
    gain.textContent = won(d.gain);
    head.append(name, gain);
    const list = document.createElement("dl");
    list.className = "stats";
    pair(list, t("tax.opening"), `${d.openingQuantity} · ${won(d.openingCost)} (${d.opening})`, null);
    if (coin.deemedPrice) {
      const each = coin.deemedPrice.exchanges.map((q) => `${q.exchange} ${Number(q.price).toLocaleString("ko-KR")}`).join(", ");
      pair(list, t("tax.deemedPrice"), `${won(d.deemedPrice)} (${each})`, null);
    }
    pair(list, t("tax.averageCost"), won(d.averageCost), null);
    pair(list, t("tax.sold"), `${d.soldQuantity} · ${won(d.proceeds)}`, null);
    pair(list, t("tax.costOfSold"), won(d.costOfSold), null);
    pair(list, t("tax.fees"), won(d.fees), null);
    pair(list, t("tax.closing"), d.closingQuantity, null);
    item.append(head, list);
    return item;
  }

  function render(preview) {
    $("#tax-error").hidden = true;
    const totals = $("#tax-totals");
    totals.replaceChildren();
    const d = preview.totals.display;
    pair(totals, t("tax.income"), won(d.income), "income");
    pair(totals, t("tax.deduction"), won(d.deduction), "deduction");
    pair(totals, t("tax.taxable"), won(d.taxable), "taxable");
    pair(totals, t("tax.nationalTax"), won(d.tax), "tax");
    pair(totals, t("tax.localTax"), won(d.localTax), "localTax");
    pair(totals, t("tax.totalTax"), won(d.total), "total");
    const sale = $("#tax-sale");
    sale.hidden = !preview.ifSoldNow;
    if (preview.ifSoldNow) {
      sale.textContent = `${t("tax.ifSoldNow")}: ${t("tax.totalTax")} ${won(preview.ifSoldNow.display.total)} (${t("tax.addedBySale")} ${won(Number(preview.addedBySale).toLocaleString("ko-KR"))})`;
    }
    $("#tax-coins").replaceChildren(...preview.coins.map(card));
    $("#tax-warnings").replaceChildren(...preview.warnings.map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }));
    $("#tax-notice").textContent = preview.notice;
    const query = `method=${encodeURIComponent(method.value)}&lang=${state.lang}`;
    $("#tax-export-coins").href = `/api/tax/${year.value}/export?rows=coins&${query}`;
    $("#tax-export-transactions").href = `/api/tax/${year.value}/export?rows=transactions&${query}`;
  }

  async function refresh() {
    if (!shown) return;
    fillYears();
    const ask = ++asked;
    if (!$("#tax-totals").children.length) $("#tax-notice").textContent = t("tax.taxLoading");
    try {
      const preview = await call("GET", `/api/tax/${year.value}?method=${encodeURIComponent(method.value)}&lang=${state.lang}`);
      if (ask === asked) render(preview);
    } catch (error) {
      if (ask !== asked) return;
      const note = $("#tax-error");
      note.textContent = error.message;
      note.hidden = false;
    }
  }

  year.addEventListener("change", refresh);
  method.addEventListener("change", refresh);

  return {
    show(visible) { shown = visible; if (visible) refresh(); },
    refresh,
  };
}
