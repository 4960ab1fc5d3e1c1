// The 랭킹 tab: CoinGecko's market-cap ranking and the global market bar, as the server
// decided them (order, search, formats, sparklines); refreshed every minute while open.
import { get } from "./http.js";
import { showStar } from "./stars.js";
import { loading, loaded } from "./loading.js";
import { fitFigures } from "./dom-text.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

export function setupRanking({ t, toast, state, toggleFavorite, openDetail }) {
  const view = { page: 1, perPage: 100, currency: "krw", sort: "rank", order: "none", q: "", next: null };
  let timer = null;
  let generation = 0;

  function cell(text, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = text;
    return td;
  }

  function row(data) {
    const tr = document.createElement("tr");
    tr.dataset.coin = data.id;
    tr.dataset.rank = data.rank == null ? "" : String(data.rank);
    const star = document.createElement("button");
    star.type = "button";
    star.className = "star";
    star.dataset.action = "favorite";
    showStar(star, state.isFavorite(data.id));
    star.setAttribute("aria-label", t("star"));
    star.textContent = "★";
    const starCell = document.createElement("td");
    starCell.className = "col-star";
    starCell.append(star);
    const name = document.createElement("td");
    name.className = "coin-name";
    if (data.image) {
      const image = document.createElement("img");
      image.className = "thumb";
      image.alt = "";
      image.loading = "lazy";
      image.src = "/img?u=" + encodeURIComponent(data.image);
      name.append(image);
    }
    const title = document.createElement("span");
    title.className = "name";
    title.textContent = data.display.name || data.name;
    const symbol = document.createElement("span");
    symbol.className = "symbol";
    symbol.textContent = data.symbol;
    // The name on its own line (the room is the name's); the symbol and the board link under it.
    const words = document.createElement("div");
    words.className = "coin-text";
    const under = document.createElement("span");
    under.className = "coin-under";
    under.append(symbol);
    words.append(title, under);
    if (data.listing) {
      // To the live board row on its Korean exchange.
      const link = document.createElement("a");
      link.href = "#";
      link.className = "board-link";
      link.dataset.boardLink = data.listing.market;
      link.dataset.exchange = data.listing.exchange;
      link.title = t("liveBoardLink");
      link.setAttribute("aria-label", t("liveBoardLink"));
      link.textContent = "↗";
      under.append(link);
    }
    name.append(words);
    const spark = document.createElement("td");
    spark.className = "spark-cell wide";
    // The server's own SVG (numbers and colours only; no text from outside).
    spark.innerHTML = data.sparkline || "";
    const d = data.display;
    const price = cell(d.price, "num");
    if (d.premium && d.premium !== "-") {
      // Its kimchi premium on the Korean board it links to.
      const premium = document.createElement("span");
      premium.className = "amount premium";
      premium.textContent = `${t("premiumShort")} ${d.premium}`;
      premium.title = t("premium");
      price.append(premium);
    }
    tr.append(cell(data.rank == null ? "-" : String(data.rank), "num rank"), starCell, name, price,
      cell(d.changeRate1h, `num wide ${d.tone1h}`), cell(d.changeRate24h, `num ${d.tone24h}`), cell(d.changeRate7d, `num wide ${d.tone7d}`),
      cell(d.marketCap, "num wide"), cell(d.volume24h, "num wide"), spark);
    return tr;
  }

  // aria-sort belongs to the column header (a th), not to the button inside it.
  function paintSort() {
    for (const header of $$("[data-rank-sort]")) {
      const active = header.dataset.rankSort === view.sort && view.order !== "none";
      header.setAttribute("aria-sort", active ? (view.order === "asc" ? "ascending" : "descending") : "none");
    }
  }

  async function loadGlobal() {
    try {
      const body = await get(`/api/global?currency=${view.currency}&lang=${state.lang}`);
      for (const element of $$("[data-global]")) element.textContent = body.display[element.dataset.global] || "-";
      const change = $("[data-global=marketCapChange24h]");
      change.className = body.display.tone;
    } catch (_) { /* the bar keeps its last figures */ }
  }

  async function load() {
    const mine = ++generation;
    const query = new URLSearchParams({ page: view.page, perPage: view.perPage, currency: view.currency, sort: view.sort,
                                        order: view.order, q: view.q, lang: state.lang });
    const rows = $("#ranking-rows");
    if (!rows.querySelector("tr[data-coin]")) loading(rows, t("loading"));
    try {
      let body;
      try { body = await get(`/api/ranking?${query}`); } catch (error) { if (mine !== generation) return; throw error; }
      if (mine !== generation) return;
      view.next = body.next;
      loaded(rows);
      rows.replaceChildren(...body.rows.map(row));
      fitFigures($$("td.num", rows));
      $("#ranking-empty").hidden = body.rows.length > 0;
      $("#ranking-empty").textContent = t("rankingEmpty");
      const note = $("#ranking-stale");
      note.hidden = !body.message;
      note.textContent = body.message || "";
      view.shownPage = body.page;
      $("#ranking-page").textContent = t("pageNumber", { page: body.page });
      $("#ranking-prev").disabled = body.page <= 1;
      $("#ranking-next").disabled = body.page * body.perPage >= 1000;
      paintSort();
    } catch (error) {
      if (mine !== generation) return;
      // Nothing shown yet: the table says why in its place; over a page already shown, a toast.
      if (!rows.querySelector("tr[data-coin]")) {
        loaded(rows);
        $("#ranking-empty").textContent = error.message;
        $("#ranking-empty").hidden = false;
      } else {
        toast(error.message);
      }
    }
  }

  function refresh() {
    load();
    loadGlobal();
  }

  function applyLanguage() {
    const labels = { rank: "rank", price: "price", change1h: "change1h", change24h: "change24h", change7d: "change7d",
                     marketCap: "marketCap", volume: "volume24h" };
    for (const header of $$("[data-rank-sort]")) $(".label", header).textContent = t(labels[header.dataset.rankSort]);
    $("#ranking-coin").textContent = t("coin");
    $("#ranking-chart").textContent = t("chart7d");
    $("#ranking-search").placeholder = t("search");
    $("#ranking-search").setAttribute("aria-label", t("search"));
    $("#ranking-prev").textContent = t("prevPage");
    $("#ranking-next").textContent = t("nextPage");
    $("#ranking-empty").textContent = t("rankingEmpty");
    for (const label of $$("[data-global-label]")) label.textContent = t(label.dataset.globalLabel);
    if (view.shownPage) $("#ranking-page").textContent = t("pageNumber", { page: view.shownPage });
    // Rows worded in the last language are not left for the next visit to show.
    if (state.tab === "ranking") refresh(); else $("#ranking-rows").replaceChildren();
  }

  $("#ranking-rows").addEventListener("click", (event) => {
    const tr = event.target.closest("tr[data-coin]");
    if (!tr) return;
    if (event.target.closest("[data-action=favorite]")) { toggleFavorite(tr.dataset.coin); return; }
    const link = event.target.closest("[data-board-link]");
    event.preventDefault();
    openDetail(link ? link.dataset.boardLink : tr.dataset.coin, link ? link.dataset.exchange : undefined);
  });
  for (const header of $$("[data-rank-sort]")) {
    // The header's button is clicked (or pressed); the click reaches its th.
    header.addEventListener("click", () => {
      const next = view.next && view.next[header.dataset.rankSort];
      if (!next) return;
      view.sort = next.sort;
      view.order = next.order;
      load();
    });
  }
  let searchTimer = null;
  $("#ranking-search").addEventListener("input", (event) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => { view.q = event.target.value; load(); }, 150);
  });
  $("#ranking-currency").addEventListener("change", (event) => { view.currency = event.target.value; refresh(); });
  $("#ranking-prev").addEventListener("click", () => { if (view.page > 1) { view.page -= 1; load(); } });
  $("#ranking-next").addEventListener("click", () => { view.page += 1; load(); });

  return {
    start() {
      refresh();
      clearInterval(timer);
      timer = setInterval(refresh, 60000);
    },
    stop() {
      clearInterval(timer);
      timer = null;
    },
    refreshStars() {
      for (const tr of $$("#ranking-rows tr[data-coin]")) {
        showStar($("[data-action=favorite]", tr), state.isFavorite(tr.dataset.coin));
      }
    },
    applyLanguage,
  };
}
