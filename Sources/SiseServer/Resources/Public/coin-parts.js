// What the 코인정보 views share: a coin's routes and the elements they are drawn with.
import { DEFAULT_EXCHANGE, splitKey } from "./exchanges.js";
import { setText } from "./dom-text.js";

// An image through the page's proxy (CoinGecko's hosts only); decorative.
export function img(url) {
  const image = document.createElement("img");
  image.alt = "";
  image.loading = "lazy";
  if (url) image.src = "/img?u=" + encodeURIComponent(url);
  return image;
}

// An element holding `value` as text (never as HTML: names can hold anything).
export function text(tag, value, className) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  element.textContent = value == null ? "" : String(value);
  return element;
}

// A favorite key to its coin route: `ID:KRW-BTC` → `/api/coins/KRW-BTC…?exchange=ID`.
export function coinURL(id, suffix, query) {
  const { exchange, market: coin } = splitKey(id);
  const params = new URLSearchParams(query);
  if (exchange !== DEFAULT_EXCHANGE) params.set("exchange", exchange);
  return `/api/coins/${encodeURIComponent(coin)}${suffix}?${params}`;
}

// `KRW-BTC` or `ID:KRW-BTC`: a market has candles, a book and a tape; a CoinGecko coin has the line only.
export function marketOf(id) {
  const { exchange, market: code } = splitKey(id);
  return /^[A-Z0-9]+-[A-Z0-9.]+$/.test(code) ? { code, exchange } : null;
}

// A table's coin cell: its name over its symbol, filled later (`fillCoinCell`).
export function coinCell() {
  const cell = document.createElement("td");
  const title = document.createElement("span");
  title.className = "name";
  const code = document.createElement("span");
  code.className = "symbol";
  cell.append(title, code);
  return cell;
}

export function fillCoinCell(cell, name, symbol) {
  const [title, code] = cell.children;
  setText(title, name);
  setText(code, symbol);
}
