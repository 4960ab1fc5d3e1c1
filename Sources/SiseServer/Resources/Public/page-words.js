// The page's own words (tabs, column heads, buttons, labels) in the page's language; each view's
// module words its own part.
const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

const TAB_LABELS = { exchange: "tabExchange", favorites: "tabFavorites", info: "tabInfo", compare: "tabCompare", premium: "premium", ranking: "tabRanking",
  portfolio: "tabPortfolio", alerts: "tabAlerts", wallets: "tabWallets", notices: "tabNotices", events: "tabEvents", profile: "tabProfile" };
const RESULT_LABELS = { coins: "coins", nfts: "nfts", exchanges: "exchanges" };

// Element → key, as text.
const TEXTS = {
  "#retry": "retry", "#clear-favorites": "clearAll", "#confirm-text": "confirmClear", "[data-action=cancel]": "cancel",
  "[data-action=confirm]": "confirm", "#favorite-cards-title": "favoriteCoins", "#trending-title": "trendingCoins",
  "#trending-nfts-title": "trendingNFTs", "#detail-back": "back", "#compare-coin .label": "coin", "#compare-gap .label": "gap",
  "#compare-global": "globalPrice", "#search-empty": "empty", "#market-premium-label": "marketPremium", "#tether-premium-label": "tetherPremium",
  "#matrix-venue-label": "matrixVenue", "#premium-venue-note": "boardPremiumVenueNote",
  "#matrix-tether-title": "tetherPremium", "#matrix-legend": "matrixLegend", "#matrix-coin": "coin", "#premium-column": "premium", "#premium-venue-label": "boardPremiumVenue", "#matrix-executable-text": "matrixExecutable", "#latest-notices-title": "noticesTitle",
};
// Element → key, as its accessible name.
const LABELS = {
  "#premium-column": "premiumColumn", "#search": "search", "#coin-search": "coinSearch", "#compare-search": "search",
  ".exchanges": "exchange", ".quotes": "market", "#theme-toggle": "theme",
};
// Element → key, as its placeholder.
const PLACEHOLDERS = { "#search": "search", "#coin-search": "coinSearch", "#compare-search": "search" };

export function applyPageWords(t, lang) {
  document.documentElement.lang = lang;
  for (const button of $$("[data-tab]")) $(".tab-label", button).textContent = t(TAB_LABELS[button.dataset.tab]);
  for (const button of $$("[data-sort]")) $(".label", button).textContent = t(button.dataset.sort);
  for (const button of $$("[data-result-tab]")) button.textContent = t(RESULT_LABELS[button.dataset.resultTab]);
  for (const label of $$("th.col-star .sr-only")) label.textContent = t("star");
  for (const [selector, key] of Object.entries(TEXTS)) $(selector).textContent = t(key);
  for (const [selector, key] of Object.entries(LABELS)) $(selector).setAttribute("aria-label", t(key));
  for (const [selector, key] of Object.entries(PLACEHOLDERS)) $(selector).placeholder = t(key);
  $("#lang-toggle").textContent = lang === "ko" ? "EN" : "한";
  // A candle's length in the page's language (15분, 1시간): the coin page's buttons and the alert form's list.
  for (const element of $$("[data-interval], #alert-interval option")) {
    const code = element.dataset.interval || element.value;
    element.textContent = t(`interval${code}`);
  }
}
