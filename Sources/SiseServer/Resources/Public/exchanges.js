// The exchanges and quote markets this server shows: written into the page by the server from
// its registry (the switch's buttons), never listed here.
const group = document.getElementById("exchanges");

export const EXCHANGES = Array.from(document.querySelectorAll("#exchanges [data-exchange]"), (button) => button.dataset.exchange);
export const DEFAULT_EXCHANGE = (group && group.dataset.defaultExchange) || EXCHANGES[0];
export const QUOTES = Array.from(document.querySelectorAll("[data-quote]"), (button) => button.dataset.quote);

// A favorite (and a coin's id on the page) names its exchange unless it is the default one:
// `KRW-BTC`, `ID:KRW-BTC`.
export function favoriteKey(market, exchange) {
  return !exchange || exchange === DEFAULT_EXCHANGE ? market : `${exchange}:${market}`;
}

// `ID:KRW-BTC` → { exchange: "ID", market: "KRW-BTC" }; no prefix is the default exchange.
export function splitKey(key) {
  const colon = key.indexOf(":");
  return colon > 0 ? { exchange: key.slice(0, colon), market: key.slice(colon + 1) } : { exchange: DEFAULT_EXCHANGE, market: key };
}

// A row's exchange, as the server named it (rows of the default exchange may omit it).
export function exchangeOf(row) {
  return row.exchange || DEFAULT_EXCHANGE;
}

// An exchange's name as its switch button writes it (`Bithumb`); the id when there is none.
export function exchangeName(exchange) {
  const button = Array.from(document.querySelectorAll("#exchanges [data-exchange]")).find((b) => b.dataset.exchange === exchange);
  return button ? button.textContent.trim() : exchange;
}

// A row's name in the page's language, as the exchange writes it (the other language when it has none).
export function rowName(row, lang) {
  return lang === "en" ? row.englishName || row.koreanName : row.koreanName || row.englishName;
}
