// 더보기's overviews: what each coin page shows for its own coin, for every coin at once — the
// wallets some exchange has shut (입출금 현황), the latest notices (공지) and the latest changes
// (변동 기록). Every coin in them opens its page; every word is the server's or the table's.
import { get } from "./http.js";
import { showNotices } from "./notices-list.js";
import { showEvents } from "./coin-events.js";
import { text as cell } from "./coin-parts.js";

const $ = (selector, root = document) => root.querySelector(selector);

// `page`: { t, state: { lang }, open(symbol, exchange) }.
export function createOverviews({ t, state, open }) {
  // A coin's symbol as a button that opens its page on that exchange.
  function coinButton(symbol, exchange) {
    const button = cell("button", symbol, "text-button coin-link");
    button.type = "button";
    button.dataset.coin = symbol;
    button.dataset.exchange = exchange;
    button.addEventListener("click", () => open(symbol, exchange));
    return button;
  }

  async function wallets() {
    const rows = $("#wallets-overview-rows");
    try {
      const body = await get(`/api/wallets?lang=${state.lang}`);
      const notes = $("#wallets-overview-notes");
      notes.textContent = "";
      for (const source of body.exchanges) if (source.message) notes.append(cell("li", source.message));
      const names = new Map(body.exchanges.map((source) => [source.exchange, source.name]));
      const side = (open) => open === null ? cell("td", t("walletUnknown")) : cell("td", open ? t("walletOpen") : t("walletShut"), open ? "" : "shut");
      rows.textContent = "";
      for (const wallet of body.wallets) {
        const tr = document.createElement("tr");
        tr.dataset.wallet = `${wallet.exchange}:${wallet.currency}:${wallet.network}`;
        const coin = document.createElement("td");
        coin.append(coinButton(wallet.currency, wallet.exchange));
        tr.append(coin, cell("td", names.get(wallet.exchange) || wallet.exchange), cell("td", wallet.network), side(wallet.deposit), side(wallet.withdraw));
        rows.append(tr);
      }
      $("#wallets-overview-table").hidden = body.wallets.length === 0;
      $("#wallets-overview-empty").hidden = body.wallets.length > 0;
    } catch (_) {
      // The list keeps what it had; an empty one says nothing could be read.
      if (!rows.children.length) $("#wallets-overview-empty").hidden = false;
    }
  }

  async function notices() {
    try { await showNotices($("#notices-overview"), $("#notices-overview-note"), `limit=50&lang=${state.lang}`, t); } catch (_) { /* keeps what it had */ }
    linkCoins($("#notices-overview"), "[data-notice]");
  }

  async function events() {
    try { await showEvents($("#events-panel"), $("#events-overview"), null, t, state.lang, { limit: 50, named: true }); } catch (_) { /* keeps what it had */ }
    for (const item of $("#events-overview").querySelectorAll("li[data-symbol]")) {
      item.prepend(coinButton(item.dataset.symbol, item.dataset.exchange));
    }
  }

  // A notice names its coins: each one opens its page on the notice's exchange.
  function linkCoins(list, selector) {
    for (const item of list.querySelectorAll(selector)) {
      const [exchange] = item.dataset.notice.split(":");
      for (const symbol of (item.dataset.symbols || "").split(",").filter(Boolean)) item.append(coinButton(symbol, exchange));
    }
  }

  return {
    start(tab) {
      if (tab === "wallets") wallets();
      else if (tab === "notices") notices();
      else if (tab === "events") events();
    },
    applyLanguage() {
      $("#wallets-overview-title").textContent = t("walletsTitle");
      $("#wallets-overview-hint").textContent = t("walletsOverviewHint");
      $("#wallets-overview-empty").textContent = t("walletsOverviewEmpty");
      const heads = [t("coin"), t("exchange"), t("walletNetwork"), t("walletDeposit"), t("walletWithdraw")];
      for (const [index, th] of Array.from(document.querySelectorAll("#wallets-overview-table th")).entries()) th.textContent = heads[index];
      $("#notices-overview-title").textContent = t("noticesTitle");
      $("#events-overview-title").textContent = t("eventsTitle");
    },
  };
}
