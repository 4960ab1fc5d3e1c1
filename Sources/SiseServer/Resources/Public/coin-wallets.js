// The coin page's 입출금 현황: this coin's networks on every exchange — deposits and withdrawals
// open or suspended, the withdrawal fee and minimum where the exchange publishes them — and what
// an exchange that cannot say does say ("key needed", "not published"). Words from the server.
import { get } from "./http.js";
import { marketOf } from "./coin-parts.js";

const $ = (selector, root = document) => root.querySelector(selector);

function cell(tag, text, className) {
  const made = document.createElement(tag);
  made.textContent = text;
  if (className) made.className = className;
  return made;
}

export function createCoinWallets({ t, state }) {
  let shown = null;

  async function load() {
    const section = $("#coin-wallets");
    const id = shown;
    const market = id && marketOf(id);
    if (!market) { section.hidden = true; return; }
    const symbol = market.code.split("-")[1];
    try {
      const body = await get(`/api/wallets?symbol=${encodeURIComponent(symbol)}&lang=${state.lang}`);
      if (shown !== id) return;
      const notes = $("#coin-wallets-notes");
      notes.textContent = "";
      for (const source of body.exchanges) if (source.message) notes.append(cell("li", source.message));
      const rows = $("#coin-wallets-rows");
      rows.textContent = "";
      const names = new Map(body.exchanges.map((source) => [source.exchange, source.name]));
      const side = (open) => open === null ? cell("td", t("walletUnknown")) : cell("td", open ? t("walletOpen") : t("walletShut"), open ? "" : "shut");
      for (const wallet of body.wallets) {
        const tr = document.createElement("tr");
        tr.dataset.wallet = `${wallet.exchange}:${wallet.network}`;
        // The network's id keeps a phone's row to its width; its name is the cell's title.
        const network = cell("td", wallet.network);
        if (wallet.networkName && wallet.networkName !== wallet.network) network.title = wallet.networkName;
        tr.append(cell("td", names.get(wallet.exchange) || wallet.exchange), network, side(wallet.deposit), side(wallet.withdraw),
          cell("td", wallet.withdrawFee || "-", "num"));
        rows.append(tr);
      }
      $("#coin-wallets-table").hidden = body.wallets.length === 0;
      section.hidden = false;
    } catch (_) {
      section.hidden = true;
    }
  }

  return {
    show(id) { shown = id; load(); },
    hide() { shown = null; $("#coin-wallets").hidden = true; },
    applyLanguage() {
      $("#coin-wallets-title").textContent = t("walletsTitle");
      const heads = [t("exchange"), t("walletNetwork"), t("walletDeposit"), t("walletWithdraw"), t("walletFee")];
      for (const [index, th] of Array.from(document.querySelectorAll("#coin-wallets-table th")).entries()) th.textContent = heads[index];
      if (shown) load();
    },
  };
}
