// What the person does on the board: a row tapped or keyed open, its star, the sort heads, the
// tabs, the exchange and quote switches, a swipe between 거래소 and 관심, the search, 다시 시도,
// 전체 삭제 (after a confirmation), the language and theme toggles, the 김프 column switch.
import { favoriteKey } from "./exchanges.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

export function wireBoard({ view, socket, premium, selectTab, toggleFavorite, openDetail, clearFavorites, failed, switchLanguage, applyTheme }) {
  const body = $("#rows");
  body.addEventListener("click", (event) => {
    const star = event.target.closest("[data-action=favorite]");
    const tr = event.target.closest("tr");
    if (!tr) return;
    const key = favoriteKey(tr.dataset.market, tr.dataset.exchange);
    if (star) toggleFavorite(key); else openDetail(key);
  });
  body.addEventListener("keydown", (event) => {
    const tr = event.target.closest("tr[data-market]");
    if (!tr || event.target.closest("button")) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      openDetail(favoriteKey(tr.dataset.market, tr.dataset.exchange));
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = event.key === "ArrowDown" ? tr.nextElementSibling : tr.previousElementSibling;
      if (next) next.focus();
    }
  });
  for (const button of $$("[data-sort]")) button.addEventListener("click", () => view.tapSort(button.dataset.sort));
  for (const button of $$("[data-tab]")) button.addEventListener("click", () => selectTab(button.dataset.tab));
  for (const button of $$("[data-exchange]")) {
    button.setAttribute("aria-pressed", String(button.dataset.exchange === view.exchange));
    button.addEventListener("click", () => view.selectExchange(button.dataset.exchange));
  }
  swipeBetweenTabs(view, selectTab);
  for (const button of $$("[data-quote]")) button.addEventListener("click", () => view.selectQuote(button.dataset.quote));
  let searchTimer = null;
  $("#search").addEventListener("input", (event) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => view.search(event.target.value), 120);
  });
  $("#retry").addEventListener("click", () => socket.retryNow());
  $("#clear-favorites").addEventListener("click", () => { $("#confirm-dialog").hidden = false; });
  $("[data-action=cancel]").addEventListener("click", () => { $("#confirm-dialog").hidden = true; });
  $("[data-action=confirm]").addEventListener("click", async () => {
    $("#confirm-dialog").hidden = true;
    try { await clearFavorites(); } catch (_) { failed(); }
  });
  $("#lang-toggle").addEventListener("click", switchLanguage);
  // 자동 (the system's), then the other look, then the system's look kept, then 자동 again: the
  // first tap always changes what is seen, and 자동 is never out of reach.
  $("#theme-toggle").addEventListener("click", () => {
    const current = document.documentElement.dataset.theme;
    const system = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    const other = system === "dark" ? "light" : "dark";
    const next = current === "auto" ? other : current === other ? system : "auto";
    if (next === "auto") localStorage.removeItem("sise.theme"); else localStorage.setItem("sise.theme", next);
    applyTheme(next);
  });
  $("#premium-column").addEventListener("click", () => {
    premium.toggleColumn();
    view.send();
  });
  // The 김프 column's venue: the server measures (and sorts) the column against it; the column's
  // head names it when it is not Binance.
  const venue = $("#premium-venue");
  const nameVenue = () => {
    const chosen = venue.selectedOptions[0];
    $("#premium-col-venue").textContent = chosen && chosen.value !== "binance" ? ` ${chosen.textContent}` : "";
  };
  venue.value = view.venue;
  nameVenue();
  venue.addEventListener("change", () => {
    view.selectVenue(venue.value);
    nameVenue();
  });
}

// A gesture from one of the seed apps: a swipe across the board moves between 거래소 and 관심.
function swipeBetweenTabs(view, selectTab) {
  const panel = $("#board-panel");
  let touch = null;
  panel.addEventListener("touchstart", (event) => {
    const point = event.changedTouches[0];
    touch = { x: point.clientX, y: point.clientY };
  }, { passive: true });
  panel.addEventListener("touchend", (event) => {
    if (!touch) return;
    const point = event.changedTouches[0];
    const dx = point.clientX - touch.x, dy = point.clientY - touch.y;
    touch = null;
    if (Math.abs(dx) < 60 || Math.abs(dy) > 40) return;
    if (dx < 0 && view.tab === "exchange") selectTab("favorites");
    else if (dx > 0 && view.tab === "favorites") selectTab("exchange");
  }, { passive: true });
}
