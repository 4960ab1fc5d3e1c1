// 입출금 현황 on the board: each exchange's coins with a wallet shut, as the server's pollers last
// read them, in the page's words; fetched once a minute (and when the language changes). A row
// shows its mark beside the symbol in the few letters a phone has room for (`.wallet`: `입출×`,
// its words as the label), the row's `data-wallet` set.
import { get } from "./http.js";

// `page`: { lang(), changed() } — `changed` after new marks came in (rows redraw their marks).
export function createWalletMarks(page) {
  let marks = new Map(); // exchange → Map(symbol → mark text)

  async function load() {
    try {
      const body = await get(`/api/wallets/marks?lang=${page.lang()}`);
      const next = new Map();
      for (const entry of body.exchanges || []) {
        next.set(entry.exchange, new Map(Object.entries(entry.marks || {}).map(([symbol, mark]) => [symbol, { words: mark.mark || "", short: mark.short || "" }])));
      }
      marks = next;
      page.changed();
    } catch (_) { /* the marks keep their last state; the next round tries again */ }
  }

  return {
    load,
    start() {
      load();
      setInterval(load, 60000);
    },
    // The mark of a coin on an exchange, `{words, short}` (null when nothing is shut).
    of: (exchange, symbol) => (marks.get(exchange) && marks.get(exchange).get(symbol)) || null,
  };
}
