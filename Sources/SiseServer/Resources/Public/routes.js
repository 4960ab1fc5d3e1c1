// The page's addresses (History API): each view has one (`/`, `/favorites?exchange=korbit`,
// `/coin/KRW-BTC`, …) that can be linked, reloaded, and walked with back and forward.
import { EXCHANGES, QUOTES, favoriteKey } from "./exchanges.js";

const $ = (selector, root = document) => root.querySelector(selector);
const TAB_PATHS = { exchange: "/", favorites: "/favorites", info: "/info", compare: "/compare", premium: "/premium", ranking: "/ranking",
  portfolio: "/portfolio", alerts: "/alerts", wallets: "/wallets", notices: "/notices", events: "/events", profile: "/profile" };

// `page`: { view, showTab(tab), openDetail(id), premiumVenue: { get(), set(venue) } } — the 김프 tab's
// venue, which its address names when it is not Binance (`/premium?venue=okx`).
export function createRoutes(page) {
  // While an address is being applied (back/forward, and until the first one is) nothing new is recorded.
  let routing = true;

  // The address of what is on screen: the coin's, or the tab's path with the board's view as a query.
  function addressNow() {
    const detail = $("#coin-detail");
    if (!detail.hidden && detail.dataset.coinId) {
      const id = detail.dataset.coinId, colon = id.indexOf(":");
      return colon > 0 ? `/coin/${encodeURIComponent(id.slice(colon + 1))}?exchange=${id.slice(0, colon)}` : `/coin/${encodeURIComponent(id)}`;
    }
    const tab = page.view.tab;
    const path = TAB_PATHS[tab] || "/";
    if (tab === "premium") {
      const venue = page.premiumVenue.get();
      return venue && venue !== "binance" ? `${path}?venue=${encodeURIComponent(venue)}` : path;
    }
    if (tab !== "exchange" && tab !== "favorites") return path;
    const text = page.view.query().toString();
    return text ? `${path}?${text}` : path;
  }

  function remember(push) {
    if (routing) return;
    const address = addressNow();
    if (address === location.pathname + location.search) return;
    if (push) history.pushState(null, "", address); else history.replaceState(null, "", address);
  }

  // Shows what the address says. `first`: a board address without `exchange` keeps the device's choice.
  async function route(first = false) {
    routing = true;
    try {
      const path = location.pathname, query = new URLSearchParams(location.search);
      if (path.startsWith("/coin/")) {
        const code = decodeURIComponent(path.slice("/coin/".length));
        const exchange = query.get("exchange");
        await page.openDetail(EXCHANGES.includes(exchange) ? favoriteKey(code, exchange) : code);
        return;
      }
      const tab = Object.keys(TAB_PATHS).find((key) => TAB_PATHS[key] === path) || "exchange";
      if (tab === "exchange" || tab === "favorites") page.view.fromAddress(query, first, QUOTES);
      if (tab === "premium") page.premiumVenue.set(query.get("venue") || "binance");
      page.showTab(tab);
    } finally {
      routing = false;
    }
    if (first) remember(false);
  }
  window.addEventListener("popstate", () => route());

  return { remember, route };
}
